/*
 * How a sale's price is shared (DESIGN.md "Sale split"): the item's creator
 * gets 70 %; when an avatar item sells inside another creator's experience,
 * that experience's creator gets 10 %; the platform keeps the rest. Shares
 * round down, so the fee takes the remainders and the three parts always add
 * up to the price.
 */

/** The creator's share, in percent of the price. */
export const CREATOR_SHARE_PERCENT = 70;
/** The selling experience's share, in percent, for avatar items sold inside another creator's experience. */
export const EXPERIENCE_SHARE_PERCENT = 10;
/** How long sale shares stay `pending` before they count as `earned`: 3 days. */
export const SALE_HOLD_MS = 3 * 86_400_000;

export interface SaleSplitInput {
  price: number;
  /** Whether the item is an avatar item (hat, shirt, emote): only those pay a selling-experience share. */
  avatarItem: boolean;
  /** The item's creator. */
  creatorId: string;
  /** The creator of the experience the sale happened in, if any. */
  sellingCreatorId: string | null;
}

export interface SaleSplit {
  creatorShare: number;
  /** 0 unless an avatar item sold inside another creator's experience. */
  experienceShare: number;
  /** The platform fee: the rest. */
  fee: number;
}

/**
 * Splits a price between the creator, the selling experience and the platform.
 *
 * @example
 * splitSale({ price: 100, avatarItem: true, creatorId: "a", sellingCreatorId: "b" }) // { creatorShare: 70, experienceShare: 10, fee: 20 }
 */
export function splitSale(input: SaleSplitInput): SaleSplit {
  const { price } = input;
  if (!Number.isSafeInteger(price) || price < 0) throw new RangeError(`price must be a non-negative integer, got ${price}`);
  const creatorShare = Math.floor((price * CREATOR_SHARE_PERCENT) / 100);
  const paysExperience = input.avatarItem && input.sellingCreatorId !== null && input.sellingCreatorId !== input.creatorId;
  const experienceShare = paysExperience ? Math.floor((price * EXPERIENCE_SHARE_PERCENT) / 100) : 0;
  return { creatorShare, experienceShare, fee: price - creatorShare - experienceShare };
}

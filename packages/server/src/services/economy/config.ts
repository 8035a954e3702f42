/*
 * The economy's fixed offer and limits (docs/economy.md): credit packs on
 * sale, list defaults, payout methods.
 */

/** A credit pack on sale. */
export interface CreditPackOffer {
  id: string;
  credits: number;
  /** In the smallest unit of `currency` (cents). */
  priceMinor: number;
  currency: string;
}

/** The packs ListCreditPacks offers, smallest first. */
export const CREDIT_PACKS: readonly CreditPackOffer[] = [
  { id: "pack_400", credits: 400, priceMinor: 499, currency: "USD" },
  { id: "pack_800", credits: 800, priceMinor: 999, currency: "USD" },
  { id: "pack_1700", credits: 1700, priceMinor: 1999, currency: "USD" },
  { id: "pack_4500", credits: 4500, priceMinor: 4999, currency: "USD" },
  { id: "pack_10000", credits: 10000, priceMinor: 9999, currency: "USD" },
];

/** Default and largest page of ListItems and ListTransactions / ListSales. */
export const LIST_DEFAULT = 50;

/**
 * Listed items one ListItems call reads at most to find `limit` the caller may see (items of hidden experiences are
 * skipped): past it the page is shorter, so that drafts full of items cannot make every listing read them all.
 */
export const LIST_SCAN_MAX = 1000;

/** Payout methods: "" in a request means the first. */
export const PAYOUT_METHODS = ["bank", "usdc"] as const;


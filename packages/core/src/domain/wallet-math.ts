/*
 * Wallet arithmetic: the three buckets of a credit wallet and the spend
 * order (DESIGN.md "Spend order"). Integers only: credits never split.
 */

/** The buckets of a wallet: `purchased` (bought with money), `earned` (from sales, after the hold), `pending` (earned, still in the hold). */
export interface WalletBuckets {
  purchased: number;
  earned: number;
  pending: number;
}

/** How a price is paid: from `purchased` first, then from `earned`. */
export interface SpendPlan {
  fromPurchased: number;
  fromEarned: number;
}

/** What a buyer may spend: `purchased` plus `earned` (`pending` is not spendable). */
export function spendable(wallet: WalletBuckets): number {
  return wallet.purchased + wallet.earned;
}

/**
 * The plan to pay `price` from a wallet, `purchased` first, then `earned`;
 * null when the spendable credits do not cover it.
 *
 * @example
 * planSpend({ purchased: 30, earned: 100, pending: 500 }, 50) // { fromPurchased: 30, fromEarned: 20 }
 */
export function planSpend(wallet: WalletBuckets, price: number): SpendPlan | null {
  if (!Number.isSafeInteger(price) || price < 0) throw new RangeError(`price must be a non-negative integer, got ${price}`);
  if (spendable(wallet) < price) return null;
  const fromPurchased = Math.min(wallet.purchased, price);
  return { fromPurchased, fromEarned: price - fromPurchased };
}

/** The wallet after a plan is paid. */
export function applySpend(wallet: WalletBuckets, plan: SpendPlan): WalletBuckets {
  return { purchased: wallet.purchased - plan.fromPurchased, earned: wallet.earned - plan.fromEarned, pending: wallet.pending };
}

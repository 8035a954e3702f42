import { ownValue } from "../json/own-value.js";

/*
 * Payout rules (DESIGN.md "Payouts"): the conversion of credits to US
 * dollars with exact decimal math, the minimum, and the moves between payout
 * states (spec "Payout status").
 */

/** The rate: 0.0038 USD per credit, as 38 ten-thousandths of a dollar. */
export const USD_PER_CREDIT = "0.0038";
const RATE_TEN_THOUSANDTHS = 38n;
/** The least a payout may ask for, in credits. */
export const PAYOUT_MIN_CREDITS = 1000;

/**
 * The US-dollar amount of `credits` as a decimal string: exact (BigInt, no
 * floats), with at least two decimals and no trailing zeros beyond them.
 *
 * @example
 * creditsToUsd(1000) // "3.80"
 * creditsToUsd(1) // "0.0038"
 */
export function creditsToUsd(credits: number | bigint): string {
  const c = BigInt(credits);
  if (c < 0n) throw new RangeError("credits must not be negative");
  const units = c * RATE_TEN_THOUSANDTHS; // in 1/10,000 USD
  const whole = units / 10_000n;
  let fraction = (units % 10_000n).toString().padStart(4, "0");
  while (fraction.length > 2 && fraction.endsWith("0")) fraction = fraction.slice(0, -1);
  return `${whole}.${fraction}`;
}

/** Payout states. */
export const PayoutStatus = {
  Requested: "requested",
  Processing: "processing",
  Paid: "paid",
  Failed: "failed",
  Reversed: "reversed",
} as const;
export type PayoutStatus = (typeof PayoutStatus)[keyof typeof PayoutStatus];

/** Allowed moves: requested → processing → paid; processing → failed; paid → reversed. */
export const PAYOUT_MOVES: Record<PayoutStatus, readonly PayoutStatus[]> = {
  requested: ["processing"],
  processing: ["paid", "failed"],
  paid: ["reversed"],
  failed: [],
  reversed: [],
};

/** Whether a payout may move from `from` to `to`. */
export function canMovePayout(from: PayoutStatus, to: PayoutStatus): boolean {
  return ownValue(PAYOUT_MOVES, from)?.includes(to) ?? false;
}

/** Whether reaching `status` gives the credits back to `earned`. */
export function returnsCredits(status: PayoutStatus): boolean {
  return status === PayoutStatus.Failed || status === PayoutStatus.Reversed;
}

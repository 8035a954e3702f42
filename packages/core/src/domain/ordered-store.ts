/*
 * The order of ordered stores (leaderboards, spec rule 10): descending by
 * value by default, ascending on request; equal values rank by key
 * ascending in both directions (DESIGN.md). Rank 1 is the first entry.
 */

/** One entry as ranking sees it. */
export interface OrderedValue {
  key: string;
  value: number;
}

/** Compares two entries in ListOrdered's order. */
export function compareOrdered(a: OrderedValue, b: OrderedValue, ascending: boolean): number {
  if (a.value !== b.value) return ascending ? a.value - b.value : b.value - a.value;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The value after adding `delta`, or null when it would leave the safe integer range (int64 values travel as JS numbers). */
export function addToOrdered(value: number, delta: number): number | null {
  const sum = value + delta;
  return Number.isSafeInteger(sum) ? sum : null;
}

import type { Clock } from "@playfield/core";

export type { Clock };

/** The wall clock: the server's default outside test suites (they move a MovableClock instead). */
export function createSystemClock(): Clock {
  return { now: () => Date.now() };
}

import type { Clock } from "@playfield/core";

/** A clock that follows real time and that tests can move forward (or set). */
export interface MovableClock extends Clock {
  /** Moves time forward by `ms` (tokens expire, holds end, members time out). */
  advance(ms: number): void;
  /** Sets the time; later reads move on from there in real time unless frozen. */
  set(ms: number): void;
  /** Stops the clock where it is: only advance/set move it. */
  freeze(): void;
}

/** The server's clock: real time plus an offset tests can move. The only place that reads Date.now(). */
export function createMovableClock(): MovableClock {
  let offset = 0;
  let frozenAt: number | null = null;
  const now = () => frozenAt ?? Date.now() + offset;
  return {
    now,
    advance(ms) {
      if (frozenAt !== null) frozenAt += ms;
      else offset += ms;
    },
    set(ms) {
      if (frozenAt !== null) frozenAt = ms;
      else offset = ms - Date.now();
    },
    freeze() {
      frozenAt = now();
    },
  };
}

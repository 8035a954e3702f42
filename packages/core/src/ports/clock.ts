/** Where every time-dependent rule reads the time: injected, so tests can move it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** A clock that tests move by hand. */
export interface ManualClock extends Clock {
  set(ms: number): void;
  advance(ms: number): void;
}

/** A clock that starts at `start` and moves only when told. */
export function createManualClock(start = Date.UTC(2026, 0, 1)): ManualClock {
  let now = start;
  return {
    now: () => now,
    set: (ms) => { now = ms; },
    advance: (ms) => { now += ms; },
  };
}

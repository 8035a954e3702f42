/**
 * A cell of WebAssembly memory holding QuickJS's per-context interrupt
 * counter: QuickJS decrements it at every loop back-edge, branch and call,
 * and calls the interrupt handler when it reaches zero (resetting it to
 * {@link QUICKJS_COUNTER_RESET} first).
 */
export interface CounterCell {
  read(): number;
  write(value: number): void;
}

/** The value QuickJS writes into the counter before it calls the interrupt handler. */
export const QUICKJS_COUNTER_RESET = 10_000;

/** Fuel charged each time the regular-expression engine checks in (every 10,000 backtracking steps). */
export const REGEX_CHECK_FUEL = 2_500;

/**
 * A real-time limit on one metered call, the backstop for work the fuel
 * count cannot see (copying a huge object in `{...o}`, comparing long
 * strings): the meter looks at the clock each time a chunk of fuel runs
 * out, and stops the call once it has run `limitMs`.
 */
export interface Watchdog {
  /** Milliseconds, monotonic (performance.now). */
  now(): number;
  limitMs: number;
}

/**
 * FuelMeter counts the fuel of one handler call exactly, with no cost in the
 * interpreter: it writes the budget into QuickJS's interrupt counter (in
 * chunks below 10,000) and reads back what is left.
 *
 * Chunks stay below 10,000, so a counter that reads 10,000 in the interrupt
 * handler means "reset by QuickJS at zero", and any other value means the
 * regular-expression engine called in (it does every 10,000 steps).
 *
 * Chunk sizes never change the count, only how often the handler runs: a
 * chunk of 256 units is 1–4 µs of interpreted code and a poll ~0.1 µs
 * (measured: ~2.5% of a busy script's time). When a chunk took far longer,
 * uncharged work is going on, and chunks shrink to 8 units so the watchdog
 * looks within a few such operations. A call's first chunk is 128 units, so
 * a small tick (most are) is never polled and never reads the clock.
 */
export interface FuelMeter {
  /** Starts metering a call with `budget` units. */
  begin(budget: number): void;
  /** The interrupt handler: true stops the script (uncatchably). */
  onInterrupt(): boolean;
  /** Charges `units` of work done inside a built-in. */
  charge(units: number): void;
  /** Fuel used since `begin`. */
  used(): number;
  /** Whether the budget ran out since `begin`. */
  exhausted(): boolean;
  /** Whether the watchdog stopped the call (it ran too long in real time). */
  overtime(): boolean;
}

// Below the reset value, so the counter can only read 10,000 after a reset.
const FIRST_CHUNK = 128;
const CHUNK = 256;
const SLOW_CHUNK = 8;
/** A chunk of CHUNK units that took this long (~250× the usual) was mostly uncharged work. */
const SLOW_CHUNK_MS = 1;

/** Creates the meter of one sandbox over its counter cell, with an optional real-time watchdog. */
export function createFuelMeter(cell: CounterCell, watchdog?: Watchdog): FuelMeter {
  let budget = 0;
  let spent = 0; // fuel of finished chunks
  let written = 0; // size of the current chunk
  let out = false;
  let late = false;
  let chunk = CHUNK;
  let startedAt = Number.NaN;
  let polledAt = 0;

  /** Looks at the clock: true when the call has run out of real time. */
  const tooLong = (): boolean => {
    if (watchdog === undefined) return false;
    const now = watchdog.now();
    if (Number.isNaN(startedAt)) {
      // The call's first poll starts its clock (reading it in begin would
      // cost every small tick): the first chunk's time is not counted.
      startedAt = polledAt = now;
      return false;
    }
    chunk = now - polledAt > SLOW_CHUNK_MS ? SLOW_CHUNK : CHUNK;
    polledAt = now;
    if (now - startedAt <= watchdog.limitMs) return false;
    late = true;
    written = 0;
    cell.write(QUICKJS_COUNTER_RESET); // keeps later polls stopping at once
    return true;
  };

  const refill = (): boolean => {
    const left = budget - spent;
    if (left <= 0) {
      out = true;
      written = 0;
      cell.write(QUICKJS_COUNTER_RESET); // keeps later polls stopping at once
      return true;
    }
    const next = Math.min(left, chunk);
    written = next;
    cell.write(next);
    return false;
  };

  return {
    begin(units) {
      budget = Math.max(0, Math.floor(units));
      spent = 0;
      out = false;
      late = false;
      chunk = watchdog === undefined ? QUICKJS_COUNTER_RESET - 1 : FIRST_CHUNK;
      startedAt = Number.NaN;
      refill();
    },
    onInterrupt() {
      if (out || late) return true;
      const counter = cell.read();
      if (counter === QUICKJS_COUNTER_RESET) {
        spent += written; // the chunk ran down to zero
        return tooLong() || refill();
      }
      // The regular-expression engine checked in: charge its work.
      this.charge(REGEX_CHECK_FUEL);
      return out || tooLong();
    },
    charge(units) {
      if (out || late || units <= 0) return;
      const counter = cell.read();
      const after = counter - Math.floor(units);
      if (after > 0) {
        cell.write(after);
        return;
      }
      // Over the chunk: book what the chunk had, then stop at the next poll
      // (or refill if the budget has more).
      spent += written - after;
      if (budget - spent <= 0) {
        spent = budget;
        out = true;
        written = 0;
        cell.write(1); // the next poll reaches zero and the handler answers true
        return;
      }
      refill();
    },
    used() {
      if (out) return budget;
      if (late) return spent;
      return Math.min(budget, spent + (written - cell.read()));
    },
    exhausted: () => out,
    overtime: () => late,
  };
}

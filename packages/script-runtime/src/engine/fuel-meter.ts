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
 * FuelMeter counts the fuel of one handler call exactly, with no cost in the
 * interpreter: it writes the budget into QuickJS's interrupt counter (in
 * chunks below 10,000) and reads back what is left.
 *
 * Chunks stay below 10,000, so a counter that reads 10,000 in the interrupt
 * handler means "reset by QuickJS at zero", and any other value means the
 * regular-expression engine called in (it does every 10,000 steps).
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
}

// Below the reset value, so the counter can only read 10,000 after a reset.
const CHUNK = QUICKJS_COUNTER_RESET - 1;

/** Creates the meter of one sandbox over its counter cell. */
export function createFuelMeter(cell: CounterCell): FuelMeter {
  let budget = 0;
  let spent = 0; // fuel of finished chunks
  let written = 0; // size of the current chunk
  let out = false;

  const refill = (): boolean => {
    const left = budget - spent;
    if (left <= 0) {
      out = true;
      written = 0;
      cell.write(QUICKJS_COUNTER_RESET); // keeps later polls stopping at once
      return true;
    }
    const next = Math.min(left, CHUNK);
    written = next;
    cell.write(next);
    return false;
  };

  return {
    begin(units) {
      budget = Math.max(0, Math.floor(units));
      spent = 0;
      out = false;
      refill();
    },
    onInterrupt() {
      if (out) return true;
      const counter = cell.read();
      if (counter === QUICKJS_COUNTER_RESET) {
        spent += written; // the chunk ran down to zero
        return refill();
      }
      // The regular-expression engine checked in: charge its work.
      this.charge(REGEX_CHECK_FUEL);
      return out;
    },
    charge(units) {
      if (out || units <= 0) return;
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
      return Math.min(budget, spent + (written - cell.read()));
    },
    exhausted: () => out,
  };
}

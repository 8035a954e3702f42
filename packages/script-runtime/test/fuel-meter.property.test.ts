import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFuelMeter, QUICKJS_COUNTER_RESET } from "../src/engine/fuel-meter.js";

/**
 * Runs `units` interpreter steps the way QuickJS does: each decrements the
 * counter, and at zero the counter is reset and the interrupt handler asked
 * whether to stop. Each step takes `msAt(i)` of the fake clock.
 */
function run(units: number, budget: number, limitMs: number | undefined, msAt: (i: number) => number) {
  let counter = 0;
  let clock = 0;
  const meter = createFuelMeter(
    { read: () => counter, write: (v) => { counter = v; } },
    limitMs === undefined ? undefined : { now: () => clock, limitMs },
  );
  meter.begin(budget);
  let ran = 0;
  for (; ran < units; ran++) {
    clock += msAt(ran);
    counter -= 1;
    if (counter <= 0) {
      counter = QUICKJS_COUNTER_RESET;
      if (meter.onInterrupt()) { ran += 1; break; }
    }
  }
  return { meter, ran, clock };
}

const unitTimes = fc.array(fc.oneof(fc.constant(0.000004), fc.constant(0.5), fc.constant(3)), { minLength: 1, maxLength: 8 });

describe("fuel meter", () => {
  it("should count fuel exactly whatever the chunks, and stop at the budget", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30_000 }), fc.integer({ min: 1, max: 30_000 }), fc.boolean(), unitTimes, (units, budget, watched, times) => {
        const { meter, ran } = run(units, budget, watched ? 1e12 : undefined, (i) => times[i % times.length]!);
        if (units < budget) {
          expect(meter.exhausted()).toBe(false);
          expect(meter.used()).toBe(units);
        } else {
          expect(meter.exhausted()).toBe(true);
          expect(meter.used()).toBe(budget);
          expect(ran).toBe(budget);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("should stop a call that runs past the watchdog's limit, soon after, and never before", () => {
    fc.assert(
      fc.property(fc.integer({ min: 50, max: 2_000 }), unitTimes, (limitMs, times) => {
        const msAt = (i: number) => times[i % times.length]!;
        const { meter, ran, clock } = run(1_000_000, 1_000_000, limitMs, msAt);
        const slowest = Math.max(...times);
        if (meter.overtime()) {
          // Never before the limit; at most the uncounted first chunk (128 steps),
          // one slow chunk (256) and one shrunk chunk (8) past it.
          expect(clock).toBeGreaterThan(limitMs);
          expect(clock).toBeLessThanOrEqual(limitMs + (128 + 256 + 8) * slowest);
          expect(meter.used()).toBe(ran);
        } else {
          expect(meter.used()).toBe(1_000_000);
          expect(clock).toBeLessThanOrEqual(limitMs + (128 + 256) * slowest);
        }
      }),
      { numRuns: 200 },
    );
  });
});

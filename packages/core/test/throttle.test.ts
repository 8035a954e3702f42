import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isThrottled, recordFailure, recordSlowedFailure, slowdownWaitMs, takeToken, tokensLeft, withdrawFailure, type RateRule, type RateState, type SlowdownRule, type ThrottleRule, type ThrottleState } from "../src/domain/throttle.js";

const rule: RateRule = { burst: 10, intervalMs: 1000 };

/** Takes at each time in turn; answers which were allowed and the last state. */
function run(times: number[], r: RateRule, start?: RateState): { allowed: boolean[]; state: RateState | undefined } {
  let state = start;
  const allowed = times.map((t) => {
    const decision = takeToken(state, r, t);
    if (decision.allowed) state = decision.state;
    return decision.allowed;
  });
  return { allowed, state };
}

const arbRule = fc.record({ burst: fc.integer({ min: 1, max: 20 }), intervalMs: fc.integer({ min: 1, max: 5000 }) });
/** Nondecreasing attempt times: gaps of 0 (same millisecond) up to a few intervals. */
const arbTimes = fc.array(fc.oneof(fc.constant(0), fc.nat(50), fc.nat(12_000)), { minLength: 1, maxLength: 120 })
  .map((gaps) => gaps.reduce<number[]>((times, gap) => [...times, (times.at(-1) ?? 1_000_000) + gap], []));

describe("takeToken", () => {
  it("should allow a full burst at one instant and refuse the next, naming when a token is back", () => {
    const { allowed, state } = run(Array(10).fill(5000), rule);
    expect(allowed).toEqual(Array(10).fill(true));
    expect(tokensLeft(state, rule, 5000)).toBe(0);
    expect(takeToken(state, rule, 5000)).toEqual({ allowed: false, retryAfterMs: 1000 });
    expect(takeToken(state, rule, 5400)).toEqual({ allowed: false, retryAfterMs: 600 });
    expect(takeToken(state, rule, 6000)).toMatchObject({ allowed: true });
  });

  it("should allow the sustained rate forever after the burst", () => {
    const { state } = run(Array(10).fill(0), rule);
    const steady = run(Array.from({ length: 100 }, (_, i) => (i + 1) * 1000), rule, state);
    expect(steady.allowed.every(Boolean)).toBe(true);
    expect(takeToken(steady.state, rule, 100_000)).toMatchObject({ allowed: false });
  });

  it("should refill the whole burst after burst × interval of quiet", () => {
    const { state } = run(Array(10).fill(0), rule);
    expect(tokensLeft(state, rule, 9999)).toBe(9);
    expect(tokensLeft(state, rule, 10_000)).toBe(10);
    expect(run(Array(11).fill(10_000), rule, state).allowed).toEqual([...Array(10).fill(true), false]);
  });

  it("should never allow more than burst + elapsed / interval in any window (property)", () => {
    fc.assert(fc.property(arbRule, arbTimes, (r, times) => {
      const { allowed } = run(times, r);
      const accepted = times.filter((_, i) => allowed[i]);
      for (let i = 0; i < accepted.length; i++) {
        for (let j = i; j < accepted.length; j++) {
          expect(j - i + 1).toBeLessThanOrEqual(r.burst + Math.floor((accepted[j]! - accepted[i]!) / r.intervalMs));
        }
      }
    }));
  });

  it("should decide exactly as a token bucket of whole milliseconds refilled continuously (property)", () => {
    fc.assert(fc.property(arbRule, arbTimes, (r, times) => {
      // The model: a level in token-milliseconds, capped at burst × interval; a send costs one interval.
      const capacity = r.burst * r.intervalMs;
      let level = capacity;
      let last = times[0]!;
      const expected = times.map((t) => {
        level = Math.min(capacity, level + (t - last));
        last = t;
        if (level < r.intervalMs) return false;
        level -= r.intervalMs;
        return true;
      });
      expect(run(times, r).allowed).toEqual(expected);
    }));
  });

  it("should allow a refused send exactly retryAfterMs later, and not a millisecond sooner (property)", () => {
    fc.assert(fc.property(arbRule, arbTimes, (r, times) => {
      const { state } = run(times, r);
      const now = times.at(-1)!;
      const decision = takeToken(state, r, now);
      if (decision.allowed) return;
      expect(decision.retryAfterMs).toBeGreaterThan(0);
      expect(decision.retryAfterMs).toBeLessThanOrEqual(r.intervalMs);
      expect(takeToken(state, r, now + decision.retryAfterMs - 1).allowed).toBe(false);
      expect(takeToken(state, r, now + decision.retryAfterMs).allowed).toBe(true);
    }));
  });
});

describe("tokensLeft", () => {
  it("should count a full bucket with no state, and whole tokens only", () => {
    expect(tokensLeft(undefined, rule, 0)).toBe(10);
    expect(tokensLeft({ fullAt: 1500 }, rule, 0)).toBe(8);
    expect(tokensLeft({ fullAt: 1000 }, rule, 0)).toBe(9);
    expect(tokensLeft({ fullAt: 0 }, rule, 500)).toBe(10);
  });
});

describe("withdrawFailure", () => {
  const failures: ThrottleRule = { limit: 3, windowMs: 60_000 };

  it("should take back one failure of the window it was counted in, and leave nothing after the last", () => {
    const one = recordFailure(undefined, failures, 1000);
    const two = recordFailure(one, failures, 2000);
    expect(withdrawFailure(two, one.windowStart)).toEqual({ failures: 1, windowStart: 1000 });
    expect(withdrawFailure(one, one.windowStart)).toBeUndefined();
    expect(withdrawFailure(undefined, 1000)).toBeUndefined();
  });

  it("should not take a failure from a window that started after it was counted", () => {
    const old = recordFailure(undefined, failures, 1000);
    const fresh = recordFailure(old, failures, 1000 + failures.windowMs);
    expect(withdrawFailure(fresh, old.windowStart)).toBe(fresh);
  });

  it("should undo recordFailure: a counted and withdrawn attempt leaves the throttle as it was (property)", () => {
    fc.assert(fc.property(fc.array(fc.nat(200_000), { maxLength: 8 }), fc.nat(200_000), (times, at) => {
      const sorted = [...times].sort((a, b) => a - b);
      const state = sorted.reduce<ReturnType<typeof recordFailure> | undefined>((s, t) => recordFailure(s, failures, t), undefined);
      const now = Math.max(at, sorted.at(-1) ?? 0);
      const counted = recordFailure(state, failures, now);
      const back = withdrawFailure(counted, counted.windowStart);
      expect(isThrottled(back, failures, now)).toBe(isThrottled(state, failures, now));
      if (state && now - state.windowStart < failures.windowMs) expect(back).toEqual(state);
    }));
  });
});

describe("slowdown", () => {
  const slow: SlowdownRule = { limit: 3, windowMs: 60_000, firstDelayMs: 1000, maxDelayMs: 8000 };

  it("should allow attempts freely under the limit, then make each wait twice as long as the last, up to the cap", () => {
    let state: ThrottleState | undefined;
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      state = recordSlowedFailure(state, slow, 10_000);
      waits.push(slowdownWaitMs(state, slow, 10_000));
    }
    expect(waits).toEqual([0, 0, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it("should never make anyone wait longer than the cap, nor at all once the window is over", () => {
    const arbTimes = fc.array(fc.nat(5000), { minLength: 1, maxLength: 200 })
      .map((gaps) => gaps.reduce<number[]>((times, gap) => [...times, (times.at(-1) ?? 0) + gap], []));
    fc.assert(fc.property(arbTimes, (times) => {
      let state: ThrottleState | undefined;
      for (const t of times) {
        // An attempt is only made when allowed, as the server does.
        if (slowdownWaitMs(state, slow, t) > 0) continue;
        state = recordSlowedFailure(state, slow, t);
        const wait = slowdownWaitMs(state, slow, t);
        expect(wait).toBeLessThanOrEqual(slow.maxDelayMs);
        expect(slowdownWaitMs(state, slow, state.windowStart + slow.windowMs)).toBe(0);
      }
    }));
  });

  it("should keep the delay when a counted attempt is taken back", () => {
    let state: ThrottleState | undefined;
    for (let i = 0; i < 5; i++) state = recordSlowedFailure(state, slow, 0);
    expect(withdrawFailure(state, 0)).toEqual({ failures: 4, windowStart: 0, nextAt: 4000 });
  });
});

/** A failure budget: at most `limit` failures per `windowMs`. */
export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

export interface ThrottleState {
  failures: number;
  windowStart: number;
  /** Under a {@link SlowdownRule} past its limit: the earliest time of the next attempt. */
  nextAt?: number;
}

/** Whether another attempt is allowed now, given the failures counted so far. */
export function isThrottled(state: ThrottleState | undefined, rule: ThrottleRule, now: number): boolean {
  if (!state || now - state.windowStart >= rule.windowMs) return false;
  return state.failures >= rule.limit;
}

/** The state after one more failure at `now` (a new window starts when the old one is over). */
export function recordFailure(state: ThrottleState | undefined, rule: ThrottleRule, now: number): ThrottleState {
  if (!state || now - state.windowStart >= rule.windowMs) return { failures: 1, windowStart: now };
  return { failures: state.failures + 1, windowStart: state.windowStart };
}

/**
 * The state after taking back one failure that was counted in the window
 * starting at `windowStart` (an attempt counted before it was checked, which
 * then succeeded); undefined when none is left. A failure of a window that
 * has since ended is not taken from the new one.
 */
export function withdrawFailure(state: ThrottleState | undefined, windowStart: number): ThrottleState | undefined {
  if (!state || state.windowStart !== windowStart) return state;
  return state.failures > 1 ? { ...state, failures: state.failures - 1 } : undefined;
}

/** Seconds until a throttled key may try again. */
export function retryAfterSeconds(state: ThrottleState, rule: ThrottleRule, now: number): number {
  return Math.max(1, Math.ceil((state.windowStart + rule.windowMs - now) / 1000));
}

/**
 * A ceiling that slows attempts instead of stopping them: past `limit`
 * failures in the window, each attempt must wait after the previous one,
 * `firstDelayMs` and then twice as long each time, up to `maxDelayMs`.
 * A wall (refusing everyone until the window ends) would let a stranger
 * lock an owner out; a delay only slows whoever keeps failing.
 */
export interface SlowdownRule extends ThrottleRule {
  firstDelayMs: number;
  maxDelayMs: number;
}

/** Milliseconds to wait before another attempt is allowed (0: allowed now). */
export function slowdownWaitMs(state: ThrottleState | undefined, rule: SlowdownRule, now: number): number {
  if (!state || now - state.windowStart >= rule.windowMs || state.failures < rule.limit) return 0;
  return Math.max(0, (state.nextAt ?? 0) - now);
}

/** The state after one more failure at `now`: past the limit, the next attempt waits a delay twice the last. */
export function recordSlowedFailure(state: ThrottleState | undefined, rule: SlowdownRule, now: number): ThrottleState {
  const next = recordFailure(state, rule, now);
  const over = next.failures - rule.limit;
  if (over < 0) return next;
  // 2^over overflows to Infinity for a huge count, and min() still caps it.
  return { ...next, nextAt: now + Math.min(rule.maxDelayMs, rule.firstDelayMs * 2 ** over) };
}

/**
 * A send rate as a token bucket: `burst` sends at once, then one more every
 * `intervalMs` (the sustained rate). Both are positive integers.
 */
export interface RateRule {
  burst: number;
  intervalMs: number;
}

/**
 * A token bucket's state, held as one number (the generic cell rate
 * algorithm): the time at which the bucket is full again. No state, or a
 * time in the past, is a full bucket; each token taken moves the time one
 * `intervalMs` later.
 */
export interface RateState {
  fullAt: number;
}

/** What taking a token answers: the new state, or how long until a token is there. */
export type RateDecision =
  | { allowed: true; state: RateState }
  | { allowed: false; retryAfterMs: number };

/** Takes one token at `now`, if the bucket holds one. */
export function takeToken(state: RateState | undefined, rule: RateRule, now: number): RateDecision {
  const fullAt = Math.max(state?.fullAt ?? now, now) + rule.intervalMs;
  // Over the limit when the bucket would need more than `burst` intervals to fill again.
  const overMs = fullAt - now - rule.burst * rule.intervalMs;
  return overMs > 0 ? { allowed: false, retryAfterMs: overMs } : { allowed: true, state: { fullAt } };
}

/** The whole tokens in the bucket at `now`. */
export function tokensLeft(state: RateState | undefined, rule: RateRule, now: number): number {
  const owedMs = Math.max(0, (state?.fullAt ?? now) - now);
  return rule.burst - Math.ceil(owedMs / rule.intervalMs);
}

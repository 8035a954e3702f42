/** A failure budget: at most `limit` failures per `windowMs`. */
export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

export interface ThrottleState {
  failures: number;
  windowStart: number;
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
  return state.failures > 1 ? { failures: state.failures - 1, windowStart } : undefined;
}

/** Seconds until a throttled key may try again. */
export function retryAfterSeconds(state: ThrottleState, rule: ThrottleRule, now: number): number {
  return Math.max(1, Math.ceil((state.windowStart + rule.windowMs - now) / 1000));
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

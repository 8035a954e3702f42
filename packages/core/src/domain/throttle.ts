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

/** Seconds until a throttled key may try again. */
export function retryAfterSeconds(state: ThrottleState, rule: ThrottleRule, now: number): number {
  return Math.max(1, Math.ceil((state.windowStart + rule.windowMs - now) / 1000));
}

import { fail, returnToken, takeToken, type RateRule, type RateState } from "@playfield/core";
import type { ServerConfig, ServerDeps } from "../../server-deps.js";

/*
 * The per-user chat send limit: one token bucket per user (domain/throttle.ts),
 * shared by every connection of the user to this server, measured on the
 * injected clock. Only a message that is stored takes a token: a resend of a
 * stored clientMessageId and a refused message take none. The buckets live
 * in the server's memory (a user's connections all reach one process);
 * servers that share storage across processes would keep them in storage.
 */

/** The default limit: 10 messages at once, then one a second. */
export const DEFAULT_CHAT_RATE: Readonly<RateRule> = { burst: 10, intervalMs: 1000 };

/**
 * The limit a server runs with: `null` turns it off; unset is the default,
 * except in the "test" environment (test suites send bursts), where it is off.
 */
export function resolveChatRate(option: Partial<RateRule> | null | undefined, environment: ServerConfig["environment"]): RateRule | null {
  if (option === null || (option === undefined && environment === "test")) return null;
  const rule = { ...DEFAULT_CHAT_RATE, ...option };
  for (const [name, value] of Object.entries(rule)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`chatRate.${name}: a positive integer, got ${value}`);
  }
  return rule;
}

/** The buckets of one server, by user; a full bucket has no entry. */
interface Buckets {
  states: Map<string, RateState>;
  /** The size at which full buckets are next swept out. */
  sweepAt: number;
}

const SWEEP_MIN = 1024;
const bucketsOf = new WeakMap<ServerDeps, Buckets>();

function bucketsFor(deps: ServerDeps): Buckets {
  let buckets = bucketsOf.get(deps);
  if (!buckets) bucketsOf.set(deps, (buckets = { states: new Map(), sweepAt: SWEEP_MIN }));
  return buckets;
}

/** Drops full buckets once the map doubles: amortized O(1) per send, memory bounded by recent senders. */
function sweep(buckets: Buckets, now: number): void {
  if (buckets.states.size < buckets.sweepAt) return;
  for (const [userId, state] of buckets.states) if (state.fullAt <= now) buckets.states.delete(userId);
  buckets.sweepAt = Math.max(SWEEP_MIN, buckets.states.size * 2);
}

/** One send's charge against its sender's bucket. */
export interface ChatCharge {
  /**
   * Takes the sender's token at `now`, or throws `resource_exhausted`.
   * Called inside the send's transaction once every other check passed; a
   * re-run of the transaction takes nothing more.
   */
  take(now: number): void;
  /** Gives the token back: the transaction that took it did not commit. */
  refund(): void;
  /** After a refusal: milliseconds until the sender has a token again. */
  readonly retryAfterMs: number | undefined;
}

/** A charge of one message against `userId`'s chat limit (a no-op when the limit is off). */
export function chatCharge(deps: ServerDeps, userId: string): ChatCharge {
  const rule = deps.config.chatRate;
  let taken = false;
  let retryAfterMs: number | undefined;
  return {
    get retryAfterMs() { return retryAfterMs; },
    take(now) {
      if (!rule || taken) return;
      const buckets = bucketsFor(deps);
      const decision = takeToken(buckets.states.get(userId), rule, now);
      if (!decision.allowed) {
        retryAfterMs = decision.retryAfterMs;
        throw fail.exhausted(
          `rate limit: ${rule.burst} messages at once, then one every ${rule.intervalMs} ms; retry after ${decision.retryAfterMs} ms`,
        );
      }
      taken = true;
      buckets.states.set(userId, decision.state);
      sweep(buckets, now);
    },
    refund() {
      if (!rule || !taken) return;
      taken = false;
      const states = bucketsFor(deps).states;
      const state = states.get(userId);
      if (state) states.set(userId, returnToken(state, rule));
    },
  };
}

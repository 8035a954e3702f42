import { fail, tables, takeToken, type ChatBucketRow, type RateRule, type Tx } from "@playfield/core";
import type { ServerConfig, ServerDeps } from "../../server-deps.js";

/*
 * The per-user chat send limit: one token bucket per user (domain/throttle.ts),
 * shared by every connection of the user, measured on the injected clock.
 * Only a message that is stored takes a token: a resend of a stored
 * clientMessageId and a refused message take none. The bucket is a
 * `chat_buckets` row written in the send's own transaction, so server
 * processes that share a storage count a user's sends together
 * (docs/shared-state.md).
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

/** One send's charge against its sender's bucket. */
export interface ChatCharge {
  /**
   * Starts reading the sender's bucket in the send's transaction, for
   * `take` (null when the limit is off): asked for with the send's other
   * reads, so that on a database it costs no message of its own.
   */
  read(tx: Tx): Promise<ChatBucketRow | undefined> | null;
  /**
   * Takes the sender's token at `now` from `bucket` (what `read` answered
   * in this transaction; read here when not given), or throws
   * `resource_exhausted`. Called once every other check passed; the bucket
   * is a row of that transaction, so a refused or rolled-back send takes
   * nothing and a re-run of the transaction reads the bucket afresh.
   */
  take(tx: Tx, now: number, bucket?: Promise<ChatBucketRow | undefined> | null): Promise<void>;
  /** After a refusal: milliseconds until the sender has a token again. */
  readonly retryAfterMs: number | undefined;
}

/** A charge of one message against `userId`'s chat limit (a no-op when the limit is off). */
export function chatCharge(deps: ServerDeps, userId: string): ChatCharge {
  const rule = deps.config.chatRate;
  let retryAfterMs: number | undefined;
  return {
    get retryAfterMs() { return retryAfterMs; },
    read: (tx) => (rule ? tx.get(tables.chatBuckets, userId) : null),
    async take(tx, now, bucket) {
      retryAfterMs = undefined;
      if (!rule) return;
      const decision = takeToken(await (bucket ?? tx.get(tables.chatBuckets, userId)), rule, now);
      if (!decision.allowed) {
        retryAfterMs = decision.retryAfterMs;
        throw fail.exhausted(
          `rate limit: ${rule.burst} messages at once, then one every ${rule.intervalMs} ms; retry after ${decision.retryAfterMs} ms`,
        );
      }
      await tx.put(tables.chatBuckets, { userId, fullAt: decision.state.fullAt });
    },
  };
}

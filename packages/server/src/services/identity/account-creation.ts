import { fail, isThrottled, recordFailure, retryAfterSeconds, tables, type ThrottleRule } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";

/*
 * Accounts created per client address (SignUp and StartGuest together),
 * `accountCreationLimit` an hour. Each creation is counted before its
 * password is hashed, and kept even when the name turns out taken: what is
 * bounded is the work a caller makes the server do. A call with no client
 * address (in process) is not limited.
 */

const HOUR_MS = 60 * 60_000;

/** Counts one account creation from `address`, or throws `resource_exhausted` naming the seconds to wait. */
export async function countAccountCreation(deps: ServerDeps, address: string | null): Promise<void> {
  const limit = deps.config.accountCreationLimit;
  if (limit === 0 || !address) return;
  const rule: ThrottleRule = { limit, windowMs: HOUR_MS };
  const key = `create:addr:${address}`;
  await deps.storage.transact(async (tx) => {
    const now = deps.clock.now();
    const state = await tx.get(tables.throttles, key);
    if (isThrottled(state, rule, now)) {
      throw fail.exhausted(`too many accounts created from this address: ${limit} an hour; try again in ${retryAfterSeconds(state!, rule, now)} s`);
    }
    await tx.put(tables.throttles, { key, ...recordFailure(state, rule, now) });
  });
}

import {
  BUDGET_WINDOW_MS, budgetWindowStart, fail, fitsStoredBytes, requestBudget, storedBytesCap, tables,
  type DatastoreUsageRow, type Tx,
} from "@playfield/core";
import type { GameCaller } from "../../rpc/caller.js";
import type { ServerDeps } from "../../server-deps.js";

/*
 * The per-experience datastore limits (DESIGN.md): every call counts against
 * the experience's budget for the current minute (300 + 40 × players in its
 * sessions by default), and writes against its stored-bytes cap (500 MB +
 * 1 MB × players ever seen). Both are read and changed inside the call's own
 * transaction, so a refused call writes nothing and two calls never both take
 * the last unit of budget.
 */

/** An experience's usage for one call: read and counted by `admitCall`, changed by `chargeBytes`, saved by `saveUsage`. */
export interface CallUsage {
  row: DatastoreUsageRow;
  /** The stored-bytes cap now. */
  cap: number;
}

/**
 * Counts one call against its experience's budget for this minute, or
 * refuses it with `resource_exhausted`. Also records the player as seen by
 * the experience (each raises the stored-bytes cap once). Inside a
 * transaction; the count is saved with `saveUsage` when the call is done.
 */
export async function admitCall(tx: Tx, deps: ServerDeps, caller: GameCaller): Promise<CallUsage> {
  const limits = deps.config.datastore;
  const now = deps.clock.now();
  const windowStart = budgetWindowStart(now);
  const stored = await tx.get(tables.datastoreUsage, caller.experienceId);
  const row: DatastoreUsageRow = stored
    ? { ...stored, ...(stored.windowStart === windowStart ? {} : { windowStart, requests: 0 }) }
    : { experienceId: caller.experienceId, windowStart, requests: 0, storedBytes: 0, playersSeen: 0 };
  // Players only ever add to the base: count them only once the base is used up.
  if (row.requests >= limits.requestsPerMinute) {
    const players = await tx.count(tables.sessionMembers, "byExperience", { equals: [caller.experienceId] });
    const budget = requestBudget(limits, players);
    if (row.requests >= budget) {
      const seconds = Math.max(1, Math.ceil((windowStart + BUDGET_WINDOW_MS - now) / 1000));
      throw fail.exhausted(`datastore: this experience used its ${budget} calls for this minute; try again in ${seconds} s`);
    }
  }
  row.requests += 1;
  const seenId = `${caller.experienceId}:${caller.userId}`;
  if (!(await tx.get(tables.datastorePlayers, seenId))) {
    await tx.put(tables.datastorePlayers, { id: seenId, experienceId: caller.experienceId, userId: caller.userId, firstSeenAt: now });
    row.playersSeen += 1;
  }
  return { row, cap: storedBytesCap(limits, row.playersSeen) };
}

/**
 * Changes the experience's stored bytes by `delta`, or refuses the write with
 * `resource_exhausted` when it would grow past the cap (shrinking always
 * passes). Call before writing anything else of the change.
 */
export function chargeBytes(usage: CallUsage, delta: number): void {
  if (!fitsStoredBytes(usage.row.storedBytes, delta, usage.cap)) {
    throw fail.exhausted(`datastore: this experience stores ${usage.row.storedBytes} of its ${usage.cap} bytes; the write needs ${delta} more`);
  }
  usage.row.storedBytes += delta;
}

/** Saves the call's count and stored bytes. Inside the call's transaction, last. */
export async function saveUsage(tx: Tx, usage: CallUsage): Promise<void> {
  await tx.put(tables.datastoreUsage, usage.row);
}

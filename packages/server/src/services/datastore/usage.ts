import {
  BUDGET_WINDOW_MS, budgetWindowStart, fail, fitsStoredBytes, requestBudget, shardOf, storedBytesCap, tables,
  type DatastoreUsageShardRow, type Tx,
} from "@playfield/core";
import type { GameCaller } from "../../rpc/caller.js";
import { ignore } from "../early-reads.js";
import type { ServerDeps } from "../../server-deps.js";
import type { ExperienceCounts, WindowCounts } from "./counts-in-process.js";
import { sumElsewhere, type UsageCopy, type UsageElsewhere } from "./usage-copy.js";

/*
 * The per-experience datastore limits (DESIGN.md): every call counts against
 * the experience's budget for the current minute (300 + 40 × players in its
 * sessions by default), and writes against its stored-bytes cap (500 MB +
 * 1 MB × players ever seen).
 *
 * Every call would write one usage row per experience, so the usage is kept
 * in shards (docs/datastore.md, "Limits per experience"; docs/storage.md,
 * "Hot rows"): a call counts in one shard only, read and written in the
 * call's own transaction, so a refused call writes nothing. The other
 * shards are read just before, in a snapshot of their own (the reads
 * before the call's transaction: `transactAfterReads`, on PostgreSQL in the
 * same message as its first reads): reading them inside the call's
 * transaction would make every pair of concurrent calls conflict again.
 * While the experience is under half its limits and this process read them
 * under USAGE_FRESH_MS ago, a call goes by the rows as this process keeps
 * them instead of reading them (usage-copy.ts). Calls that run at the same
 * moment are therefore not counted against each other: under concurrency an
 * experience can go over its budget or its cap by what those calls add (at
 * most one call, or one value of 4 MB, per call in flight), and by what
 * other processes' calls added in the last USAGE_FRESH_MS. One call at a
 * time in one process, both are exact. Calls that write nothing
 * but their count are counted in the process instead, and written in the
 * background (counts-in-process.ts); a writing call takes them along.
 *
 * A call's shard is its player's (`shardOf`), unless a call of this process
 * that is still running holds it: then the next free one. So the calls of
 * one process never write the same shard row at once (on PostgreSQL they
 * would conflict and run again); calls of other processes can, and retry.
 */

/** Shards of an experience's usage: more than the calls a process runs at once on a pool of 10 connections. */
const USAGE_SHARDS = 16;

/** An experience's usage for one call: read and counted by `admitCall`, changed by `chargeBytes`, saved by `saveUsage`. */
export interface CallUsage {
  /** The caller's shard, as the call leaves it. */
  row: DatastoreUsageShardRow;
  elsewhere: UsageElsewhere;
  /** The stored-bytes cap now. */
  cap: number;
  /** The window of this process's counts the call counts in, and how many of its pending calls the call took along (datastore-service.ts takes them). */
  window: WindowCounts;
  taken: number;
  /** The experience had not seen the player: the call records it, in its shard row too. */
  newPlayer: boolean;
}

/**
 * The shard a call counts in, held until the call is done. A class, so that
 * a lease is one object and no closure (one per writing call).
 */
export class ShardLease {
  /** `counts`: the experience's counts, which mark the shard held; null when the lease holds none (every shard was held). */
  constructor(readonly shard: number, private readonly counts: ExperienceCounts | null) {}

  release(): void {
    if (this.counts !== null) this.counts.heldShards &= ~(1 << this.shard);
  }
}

/**
 * Takes the shard of `key` (a player, or a process's background write) for
 * the call, or the next one no running call of this process holds (the
 * key's when all are). Held in the experience's counts (counts-in-process.ts),
 * which are per storage, so per process and database.
 */
export function leaseShard(counts: ExperienceCounts, key: string): ShardLease {
  const own = shardOf(key, USAGE_SHARDS);
  for (let i = 0; i < USAGE_SHARDS; i++) {
    const shard = (own + i) % USAGE_SHARDS;
    if ((counts.heldShards & (1 << shard)) === 0) {
      counts.heldShards |= 1 << shard;
      return new ShardLease(shard, counts);
    }
  }
  return new ShardLease(own, null);
}

/**
 * Sums the experience's usage outside shard `shard` (the usage row of earlier
 * versions included), as read now, and gives `copy` the rows. Among the reads
 * before the call's transaction.
 */
export async function usageElsewhere(tx: Tx, now: number, experienceId: string, shard: number, copy: UsageCopy): Promise<UsageElsewhere> {
  const mark = copy.reading();
  // Both asked for before either is awaited (one round trip on a database), without a Promise.all's objects.
  const shardsRead = tx.query(tables.datastoreUsageShards, "byExperience", { equals: [experienceId] });
  const legacyRead = tx.get(tables.datastoreUsage, experienceId);
  legacyRead.catch(ignore);
  const shards = await shardsRead;
  const legacy = await legacyRead;
  copy.took(mark, shards, legacy);
  return sumElsewhere(now, shard, shards, legacy, false);
}

/**
 * Counts one call against its experience's budget for this minute, or
 * refuses it with `resource_exhausted`. Also records the player as seen by
 * the experience (each raises the stored-bytes cap once). Inside the call's
 * transaction: its reads start at once, with the call's others; `before`
 * (the reads just before the transaction, the usage elsewhere among them) is
 * awaited after them. The count is
 * saved with `saveUsage` when the call is done.
 */
export async function admitCall(
  tx: Tx, deps: ServerDeps, caller: GameCaller, shard: number, before: Promise<{ readonly elsewhere: UsageElsewhere }>, counts: ExperienceCounts,
): Promise<CallUsage> {
  const limits = deps.config.datastore;
  const now = deps.clock.now();
  const windowStart = budgetWindowStart(now);
  const id = tables.datastoreUsageShardId(caller.experienceId, shard);
  const seenId = playerSeenId(caller);
  // Asked for together, as `usageElsewhere`'s. The player seen is written once and never changed: the process's copy
  // tells what a read would (`getCached`); with no copy it is read in the transaction, so a new player is recorded once.
  // The shard as this process keeps it too: a call that only counts does not write it (its count waits in the process),
  // and one that writes it has its copy checked by the write.
  const storedRead = tx.getCached(tables.datastoreUsageShards, id);
  const seenRead = tx.getCached(tables.datastorePlayers, seenId);
  seenRead.catch(ignore);
  const stored = await storedRead;
  const seen = await seenRead;
  const { elsewhere } = await before;
  // A copy to change (the stored row may be the storage's own), field by field: `withChanges` (Object.assign) is slow on Node 20.
  const row: DatastoreUsageShardRow = stored
    ? {
      id: stored.id, experienceId: stored.experienceId, shard: stored.shard, windowStart,
      requests: stored.windowStart === windowStart ? stored.requests : 0, storedBytes: stored.storedBytes, playersSeen: stored.playersSeen,
    }
    : { id, experienceId: caller.experienceId, shard, windowStart, requests: 0, storedBytes: 0, playersSeen: 0 };
  // With the reading calls this process counted and has not written (counts-in-process.ts): the call takes them along.
  const window = counts.windowAt(windowStart);
  const sum = elsewhere.requests + row.requests;
  try {
    await checkBudget(tx, deps, caller, sum + window.pending, now);
  } catch (error) {
    // Refused, it read the experience's sum all the same: the process's reading calls check against it from now on.
    if (!elsewhere.copied) window.wrote(0, 0, sum);
    throw error;
  }
  row.requests += 1;
  if (!seen) {
    await tx.put(tables.datastorePlayers, { id: seenId, experienceId: caller.experienceId, userId: caller.userId, firstSeenAt: now });
    row.playersSeen += 1;
  }
  return { row, elsewhere, cap: storedBytesCap(limits, elsewhere.playersSeen + row.playersSeen), window, taken: 0, newPlayer: !seen };
}

/** The id of the row that records a player as seen by an experience's datastore. */
export function playerSeenId(caller: GameCaller): string {
  return `${caller.experienceId}:${caller.userId}`;
}

/**
 * Refuses a call with `resource_exhausted` when the experience's calls this
 * minute (`requests`, the call not included) have used its budget.
 */
export function checkBudget(tx: Tx, deps: ServerDeps, caller: GameCaller, requests: number, now: number): Promise<void> | undefined {
  // Players only ever add to the base: count them only once the base is used up (most calls: no promise to make).
  if (requests < deps.config.datastore.requestsPerMinute) return undefined;
  return checkBudgetWithPlayers(tx, deps, caller, requests, now);
}

async function checkBudgetWithPlayers(tx: Tx, deps: ServerDeps, caller: GameCaller, requests: number, now: number): Promise<void> {
  const limits = deps.config.datastore;
  const players = await tx.count(tables.sessionMembers, "byExperience", { equals: [caller.experienceId] });
  const budget = requestBudget(limits, players);
  if (requests >= budget) {
    const seconds = Math.max(1, Math.ceil((budgetWindowStart(now) + BUDGET_WINDOW_MS - now) / 1000));
    throw fail.exhausted(`datastore: this experience used its ${budget} calls for this minute; try again in ${seconds} s`);
  }
}

/**
 * Changes the experience's stored bytes by `delta`, or refuses the write with
 * `resource_exhausted` when it would grow past the cap (shrinking always
 * passes). Call before writing anything else of the change.
 */
export function chargeBytes(usage: CallUsage, delta: number): void {
  const stored = usage.elsewhere.storedBytes + usage.row.storedBytes;
  if (!fitsStoredBytes(stored, delta, usage.cap)) {
    throw fail.exhausted(`datastore: this experience stores ${stored} of its ${usage.cap} bytes; the write needs ${delta} more`);
  }
  usage.row.storedBytes += delta;
}

/** Saves the call's count and stored bytes in the caller's shard. Inside the call's transaction, last. */
export function saveUsage(tx: Tx, usage: CallUsage): Promise<void> {
  return tx.put(tables.datastoreUsageShards, usage.row);
}

import { budgetWindowStart, storedBytesCap, type DatastoreLimits, type DatastoreUsageRow, type DatastoreUsageShardRow } from "@playfield/core";

/*
 * The datastore usage of an experience as this process knows it (usage.ts
 * says how it is kept in shards): what a writing call checks its budget and
 * the stored-bytes cap against besides its own shard.
 */

/** How old the experience's usage, as last read, may be for a call to go by it without reading it again. */
export const USAGE_FRESH_MS = 500;

/** The experience's usage outside the caller's shard, read before the call's transaction (or from this process's copy). */
export interface UsageElsewhere {
  /** Calls counted in the current window. */
  requests: number;
  storedBytes: number;
  playersSeen: number;
  /** Summed from this process's copy of the rows (`UsageCopy`), not read just now. */
  copied: boolean;
}

/**
 * An experience's usage rows as this process last read them (every shard,
 * and the usage row of earlier versions), with the shard rows it committed
 * since: the usage elsewhere without reading it, for a writing call that
 * starts while the rows are fresh (read under USAGE_FRESH_MS ago, as a
 * reading call's sum) and the experience is under half its budget and half
 * its cap (`served`). One process: exact, as a read just before would be.
 * Across processes: another's writes count here once this process reads
 * again, under a second later; the last half of each limit is always
 * checked against a fresh read. On PostgreSQL this spares a writing call
 * reading all 16 shard rows.
 */
export class UsageCopy {
  /** Per shard, the row as read, or as this process committed it since. */
  private readonly shards = new Map<number, DatastoreUsageShardRow>();
  private legacy: DatastoreUsageRow | undefined;
  /** When the last read started (performance.now()). */
  private readAt = -Infinity;
  /** This process's commits of shard rows, numbered; per shard, the number of its last. */
  private commits = 0;
  private readonly committedAt = new Map<number, number>();

  /**
   * The usage outside `shard` at `now` from these rows, when a writing call
   * may go by them: fresh, and the experience under half its base budget
   * (with `uncommitted`, the calls this process counted and has not
   * committed) and half its stored-bytes cap; else null (read it).
   */
  served(now: number, shard: number, limits: DatastoreLimits, uncommitted: number): UsageElsewhere | null {
    if (this.readAt < performance.now() - USAGE_FRESH_MS) return null;
    // The whole experience's sum once, then the caller's shard taken out of it.
    const sum = sumElsewhere(now, -1, this.shards.values(), this.legacy, true);
    if ((sum.requests + uncommitted) * 2 >= limits.requestsPerMinute || sum.storedBytes * 2 >= storedBytesCap(limits, sum.playersSeen)) return null;
    const own = this.shards.get(shard);
    if (own !== undefined) {
      if (own.windowStart === budgetWindowStart(now)) sum.requests -= own.requests;
      sum.storedBytes -= own.storedBytes;
      sum.playersSeen -= own.playersSeen;
    }
    return sum;
  }

  /** A read of the rows starting: answers what `took` is given when it is done. */
  reading(): ReadMark {
    return { at: performance.now(), commits: this.commits };
  }

  /** What a read started at `mark` found. A shard this process committed since the read started keeps its committed row. */
  took(mark: ReadMark, rows: readonly DatastoreUsageShardRow[], legacy: DatastoreUsageRow | undefined): void {
    for (const shard of [...this.shards.keys()]) {
      if ((this.committedAt.get(shard) ?? 0) <= mark.commits) this.shards.delete(shard);
    }
    for (const row of rows) {
      if ((this.committedAt.get(row.shard) ?? 0) <= mark.commits) this.shards.set(row.shard, row);
    }
    this.legacy = legacy;
    if (mark.at > this.readAt) this.readAt = mark.at;
  }

  /** A shard row this process committed (a copy it keeps: the row is not changed after its commit). */
  committed(row: DatastoreUsageShardRow): void {
    this.shards.set(row.shard, row);
    this.committedAt.set(row.shard, ++this.commits);
  }
}

/** Where a read of the usage rows started (`UsageCopy.reading`). */
export interface ReadMark {
  at: number;
  commits: number;
}

/** The usage outside `shard` at `now`, from an experience's rows. */
export function sumElsewhere(
  now: number, shard: number, shards: Iterable<DatastoreUsageShardRow>, legacy: DatastoreUsageRow | undefined, copied: boolean,
): UsageElsewhere {
  const windowStart = budgetWindowStart(now);
  const sum: UsageElsewhere = { requests: 0, storedBytes: 0, playersSeen: 0, copied };
  for (const row of shards) {
    if (row.shard === shard) continue;
    if (row.windowStart === windowStart) sum.requests += row.requests;
    sum.storedBytes += row.storedBytes;
    sum.playersSeen += row.playersSeen;
  }
  if (legacy) {
    if (legacy.windowStart === windowStart) sum.requests += legacy.requests;
    sum.storedBytes += legacy.storedBytes;
    sum.playersSeen += legacy.playersSeen;
  }
  return sum;
}

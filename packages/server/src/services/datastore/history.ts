import { tables, type DatastoreEntryRow, type DatastoreHistoryRow, type DatastoreScope, type Storage, type Tx } from "@playfield/core";

/*
 * Old values of datastore entries: every overwrite and every Delete keeps
 * the value it replaced for the retention period (30 days by default), then
 * it is purged. Writes purge a few expired rows each, so the backlog never
 * grows; readers skip rows past the period that no write has purged yet.
 * The expired rows are looked for among the reads before the write's
 * transaction (a snapshot: a scan of the oldest rows inside every write's
 * serializable transaction would lock the index page that concurrent
 * writes insert into, and make them conflict), by one write of a process
 * at a time (concurrent writes would delete the same rows, and conflict),
 * and at most once a second of the injected clock while the last look found
 * less than a batch (most writes then send no read for it at all).
 */

/** Rows each write purges at most: more than one per write, so purging keeps up with any write rate. */
const PURGE_BATCH = 16;

/** How long after a look for expired old values that found less than a batch the next one waits (ms of the injected clock). */
export const PURGE_EVERY_MS = 1_000;

/** The purge of a storage (so of a process and database): held by one write of this process at a time. */
export class PurgeLease {
  held = false;
  /** Expired old values the holder's look found. */
  found = 0;
  /** No look before this time, unless the last found a whole batch (a backlog). */
  nextAt = -Infinity;

  release(now: number): void {
    this.held = false;
    this.nextAt = this.found >= PURGE_BATCH ? -Infinity : now + PURGE_EVERY_MS;
  }
}

/** Each storage's purge lease: one object for the storage's life, so that taking it allocates nothing. */
const purges = new WeakMap<object, PurgeLease>();

/** Takes the purge for one write at `now` when no other write of this process has it and a look is due: answers the lease (to `release`), or null. */
export function leasePurge(storage: Storage, now: number): PurgeLease | null {
  let lease = purges.get(storage);
  if (lease === undefined) purges.set(storage, lease = new PurgeLease());
  if (lease.held || now < lease.nextAt) return null;
  lease.held = true;
  lease.found = 0;
  return lease;
}

/** Keeps `entry` as an old value, replaced at `now` by a newer version or by a Delete. Inside a transaction. */
export function keepOldValue(tx: Tx, entry: DatastoreEntryRow, now: number, deleted: boolean): Promise<void> {
  const row: DatastoreHistoryRow = {
    id: `${entry.id}#${entry.version}`,
    entryId: entry.id,
    experienceId: entry.experienceId,
    store: entry.store,
    scope: entry.scope,
    ownerId: entry.ownerId,
    key: entry.key,
    value: entry.value,
    version: entry.version,
    updatedAt: entry.updatedAt,
    replacedAt: now,
    deleted,
  };
  return tx.put(tables.datastoreHistory, row);
}

/** The newest version an entry had before it was deleted (0 when none is kept): new versions start above it. */
export async function deletedVersionFloor(tx: Tx, entryId: string): Promise<number> {
  const [newest] = await tx.query(tables.datastoreHistory, "byEntry", { equals: [entryId], order: "desc", limit: 1 });
  return newest?.version ?? 0;
}

/** Up to a batch of old values replaced at or before `cutoff` (now minus the retention period). Among the reads before a write's transaction. */
export function expiredOldValues(tx: Tx, cutoff: number): Promise<DatastoreHistoryRow[]> {
  return tx.query(tables.datastoreHistory, "byReplacedAt", { range: { lte: cutoff }, limit: PURGE_BATCH });
}

/** Deletes the expired old values `expiredOldValues` found (a write of another process may have deleted some). Inside a transaction. */
export async function purgeOldValues(tx: Tx, expired: readonly DatastoreHistoryRow[]): Promise<void> {
  // Most writes find none to purge.
  if (expired.length === 0) return;
  // Asked for together: one round trip on a database.
  await Promise.all(expired.map((row) => tx.delete(tables.datastoreHistory, row.id)));
}

/** Which entry an operator asks about. */
export interface EntryAddress {
  experienceId: string;
  /** Empty = `default`. */
  store?: string;
  scope?: DatastoreScope;
  /** The player, for `user` scope. */
  userId?: string;
  key: string;
}

/** The old values of one entry still within the retention period, newest first (`server.operator.datastore.oldValues`). */
export async function readOldValues(storage: Storage, now: number, retentionMs: number, address: EntryAddress): Promise<DatastoreHistoryRow[]> {
  const scope = address.scope ?? "user";
  const id = tables.datastoreEntryId(address.experienceId, address.store || "default", scope, scope === "user" ? address.userId ?? "" : "", address.key);
  const rows = await storage.transact((tx) => tx.query(tables.datastoreHistory, "byEntry", { equals: [id], order: "desc" }));
  return rows.filter((row) => row.replacedAt > now - retentionMs);
}

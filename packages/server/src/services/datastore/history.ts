import { tables, type DatastoreEntryRow, type DatastoreHistoryRow, type DatastoreScope, type Storage, type Tx } from "@playfield/core";

/*
 * Old values of datastore entries: every overwrite and every Delete keeps
 * the value it replaced for the retention period (30 days by default), then
 * it is purged. Writes purge a few expired rows each, so the backlog never
 * grows; readers skip rows past the period that no write has purged yet.
 */

/** Rows each write purges at most: more than one per write, so purging keeps up with any write rate. */
const PURGE_BATCH = 16;

/** Keeps `entry` as an old value, replaced at `now` by a newer version or by a Delete. Inside a transaction. */
export async function keepOldValue(tx: Tx, entry: DatastoreEntryRow, now: number, deleted: boolean): Promise<void> {
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
  await tx.put(tables.datastoreHistory, row);
}

/** The newest version an entry had before it was deleted (0 when none is kept): new versions start above it. */
export async function deletedVersionFloor(tx: Tx, entryId: string): Promise<number> {
  const [newest] = await tx.query(tables.datastoreHistory, "byEntry", { equals: [entryId], order: "desc", limit: 1 });
  return newest?.version ?? 0;
}

/** Deletes up to a batch of old values replaced at or before `cutoff` (now minus the retention period). Inside a transaction. */
export async function purgeOldValues(tx: Tx, cutoff: number): Promise<void> {
  const expired = await tx.query(tables.datastoreHistory, "byReplacedAt", { range: { lte: cutoff }, limit: PURGE_BATCH });
  for (const row of expired) await tx.delete(tables.datastoreHistory, row.id);
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

import { defineTable } from "../port.js";

/*
 * DatastoreService's tables: the live entries of every experience's key-value
 * stores, the old values kept for the retention period, the ordered stores
 * (leaderboards), and each experience's usage (request budget, stored bytes,
 * players seen), kept in shards summed on read. Ids join their parts as a
 * JSON array, so no part can run into the next one whatever characters a
 * key holds.
 */

/** The two scopes of an entry. */
export type DatastoreScope = "user" | "global";

/** One live entry of a key-value store. Deleted entries have no row (their last version lives on in the history). */
export interface DatastoreEntryRow {
  /** `datastoreEntryId(experienceId, store, scope, ownerId, key)` */
  id: string;
  experienceId: string;
  store: string;
  scope: DatastoreScope;
  /** The player whose data it is; `""` for `global`. */
  ownerId: string;
  key: string;
  /** JSON text. */
  value: string;
  version: number;
  /** UTF-8 bytes of key and value: what the entry counts against the stored-bytes cap. */
  bytes: number;
  updatedAt: number;
}

/** The id of an entry: the same for every version of it, live or deleted. */
export function datastoreEntryId(experienceId: string, store: string, scope: DatastoreScope, ownerId: string, key: string): string {
  return JSON.stringify([experienceId, store, scope, ownerId, key]);
}

export const datastoreEntries = defineTable<DatastoreEntryRow>()({
  name: "datastore_entries",
  primaryKey: (row) => row.id,
  // Get reads one in a read-only transaction (services/datastore): a game's saves are read far more often than written.
  cachedReads: true,
  indexes: {
    /**
     * One scope's keys in key order (ListKeys: `equals: [scope, ownerId, experienceId, store]`), and
     * one player's `user`-scope entries in every experience (ExportMyData: `equals: ["user", userId]`).
     * One index serves both, so a write updates one tree, not two.
     */
    byOwner: { key: (row) => [row.scope, row.ownerId, row.experienceId, row.store, row.key] },
  },
});

/** An old value: the entry as it was before a write replaced it or a Delete removed it. */
export interface DatastoreHistoryRow extends Omit<DatastoreEntryRow, "id" | "bytes"> {
  /** `${entryId}#${version}` */
  id: string;
  entryId: string;
  /** When a write replaced this value or a Delete removed it; the retention period runs from here. */
  replacedAt: number;
  /** True when a Delete removed it (no newer version followed at that time). */
  deleted: boolean;
}

export const datastoreHistory = defineTable<DatastoreHistoryRow>()({
  name: "datastore_history",
  primaryKey: (row) => row.id,
  indexes: {
    /** An entry's old values by version (the newest is also the version floor of a deleted key). */
    byEntry: { key: (row) => [row.entryId, row.version] },
    /** Oldest first, for the purge. */
    byReplacedAt: { key: (row) => [row.replacedAt] },
  },
});

/** One key of an ordered store (a leaderboard entry). */
export interface OrderedEntryRow {
  /** `orderedEntryId(experienceId, store, key)` */
  id: string;
  experienceId: string;
  store: string;
  key: string;
  value: number;
  updatedAt: number;
}

export function orderedEntryId(experienceId: string, store: string, key: string): string {
  return JSON.stringify([experienceId, store, key]);
}

export const orderedEntries = defineTable<OrderedEntryRow>()({
  name: "ordered_entries",
  primaryKey: (row) => row.id,
  indexes: {
    /** Highest value first, equal values by key ascending (DESIGN.md): `-value` keeps both in one ascending walk. */
    top: { key: (row) => [row.experienceId, row.store, -row.value || 0, row.key], counted: true },
    /** Lowest value first, equal values by key ascending. Counted: ListOrdered's offset and a key's rank cost the same at any board size. */
    bottom: { key: (row) => [row.experienceId, row.store, row.value, row.key], counted: true },
    /** Entries whose key is a user id, in every experience (ExportMyData). */
    byKey: { key: (row) => [row.key, row.experienceId, row.store] },
  },
});

/**
 * An experience's datastore usage as versions before the sharded usage kept
 * it, in one row that every call wrote: read (summed with the shards below,
 * so stored bytes and players seen carry over), never written.
 */
export interface DatastoreUsageRow {
  experienceId: string;
  /** Start of the current one-minute window (ms, aligned to the minute). */
  windowStart: number;
  /** Calls answered in this window. */
  requests: number;
  /** UTF-8 bytes of every live entry's key and value. */
  storedBytes: number;
  /** Distinct players that ever called the datastore of this experience. */
  playersSeen: number;
}

export const datastoreUsage = defineTable<DatastoreUsageRow>()({
  name: "datastore_usage",
  primaryKey: (row) => row.experienceId,
  indexes: {},
});

/**
 * One shard of an experience's datastore usage. A call counts in the shard of
 * its player (`shardOf(userId, …)`), so concurrent calls of different players
 * rarely write the same row; the experience's usage is the sum over its
 * shards (and its `datastore_usage` row, if an earlier version left one).
 * A shard's `storedBytes` may be negative: a player may delete what another
 * player's call stored; only the sum is the experience's stored bytes.
 */
export interface DatastoreUsageShardRow {
  /** `datastoreUsageShardId(experienceId, shard)` */
  id: string;
  experienceId: string;
  shard: number;
  /** Start of the minute `requests` counts (ms, aligned to the minute). */
  windowStart: number;
  /** Calls of this shard's players answered in that minute. */
  requests: number;
  /** Change of the experience's stored bytes made by this shard's calls. */
  storedBytes: number;
  /** Players of this shard seen by the experience's datastore. */
  playersSeen: number;
}

export function datastoreUsageShardId(experienceId: string, shard: number): string {
  return JSON.stringify([experienceId, shard]);
}

export const datastoreUsageShards = defineTable<DatastoreUsageShardRow>()({
  name: "datastore_usage_shards",
  primaryKey: (row) => row.id,
  // Read by every datastore call; a shard is leased to one process, whose copy its own writes keep current.
  checkedCopies: true,
  indexes: {
    byExperience: { key: (row) => [row.experienceId, row.shard] },
  },
});

/** A player seen by an experience's datastore (each raises the stored-bytes cap once). */
export interface DatastorePlayerRow {
  /** `${experienceId}:${userId}` */
  id: string;
  experienceId: string;
  userId: string;
  firstSeenAt: number;
}

export const datastorePlayers = defineTable<DatastorePlayerRow>()({
  name: "datastore_players",
  primaryKey: (row) => row.id,
  // Read by every datastore call, written once per player and experience.
  cachedReads: true,
  indexes: {},
});

import {
  fail, nextVersion, schemas, tables, utf8Length,
  type DatastoreEntryRow, type DatastoreHistoryRow, type DatastoreScope, type Tx,
} from "@playfield/core";
import type { GameCaller } from "../../rpc/caller.js";
import type { ServerDeps } from "../../server-deps.js";
import { chargeBytes, type CallUsage } from "./usage.js";
import { deletedVersionFloor, keepOldValue, purgeOldValues } from "./history.js";

/*
 * Entries of the key-value stores: where a request points (spec rules 2 and
 * 3) and the writes that keep versions, old values and stored bytes right.
 */

/** The entry a request names, resolved against the caller's token. */
export interface EntryAddress {
  experienceId: string;
  store: string;
  scope: DatastoreScope;
  /** The player whose data it is; "" for global. */
  ownerId: string;
  key: string;
  id: string;
}

/** The fields that name a store and scope in a request. */
export interface ScopeFields {
  store: string;
  scope: string;
  userId: string;
}

/** Store, scope and owner of a request: empty store = `default`, empty scope = `user`, empty userId = the token's player. */
export function resolveScope(caller: GameCaller, req: ScopeFields): Omit<EntryAddress, "key" | "id"> {
  const scope: DatastoreScope = req.scope === "global" ? "global" : "user";
  if (scope === "global" && req.userId !== "") throw fail.invalid("userId: only with scope user");
  return { experienceId: caller.experienceId, store: req.store || "default", scope, ownerId: scope === "user" ? req.userId || caller.userId : "" };
}

export function resolveEntry(caller: GameCaller, req: ScopeFields & { key: string }): EntryAddress {
  const { experienceId, store, scope, ownerId } = resolveScope(caller, req);
  // Field by field, not `{ ...at, key, id }`, which is slow on Node 20 (see `withChanges` in @playfield/core).
  return { experienceId, store, scope, ownerId, key: req.key, id: tables.datastoreEntryId(experienceId, store, scope, ownerId, req.key) };
}

/** Refuses a value over 4 MB of UTF-8 (the schema counts characters; this counts bytes). */
export function checkValueSize(field: string, value: string): number {
  const bytes = utf8Length(value);
  if (bytes > schemas.DATASTORE_VALUE_MAX) throw fail.invalid(`${field}: at most 4 MB (${schemas.DATASTORE_VALUE_MAX} bytes) of JSON text; this is ${bytes}`);
  return bytes;
}

/**
 * Writes `value` as the entry's next version: keeps the value it replaces,
 * charges the stored bytes (refused past the cap), purges the `expired` old
 * values read before the transaction. Answers the new row. Inside a transaction.
 */
export async function writeEntry(
  tx: Tx, deps: ServerDeps, usage: CallUsage, at: EntryAddress, current: DatastoreEntryRow | undefined, value: string, valueBytes: number,
  expired: readonly DatastoreHistoryRow[],
): Promise<DatastoreEntryRow> {
  const now = deps.clock.now();
  const floor = current ? 0 : await deletedVersionFloor(tx, at.id);
  const bytes = utf8Length(at.key) + valueBytes;
  chargeBytes(usage, bytes - (current?.bytes ?? 0));
  if (current) await keepOldValue(tx, current, now, false);
  const row: DatastoreEntryRow = {
    id: at.id, experienceId: at.experienceId, store: at.store, scope: at.scope, ownerId: at.ownerId, key: at.key,
    value, version: nextVersion(current?.version, floor), bytes, updatedAt: now,
  };
  await tx.put(tables.datastoreEntries, row);
  await purgeOldValues(tx, expired);
  return row;
}

/** Deletes a live entry, keeping its value as an old one, and purges the `expired` old values. Inside a transaction. */
export async function deleteEntry(tx: Tx, deps: ServerDeps, usage: CallUsage, current: DatastoreEntryRow, expired: readonly DatastoreHistoryRow[]): Promise<void> {
  const now = deps.clock.now();
  chargeBytes(usage, -current.bytes);
  await keepOldValue(tx, current, now, true);
  // With the purge's deletes: one round trip on a database.
  await Promise.all([tx.delete(tables.datastoreEntries, current.id), purgeOldValues(tx, expired)]);
}

/*
 * Schemas of the DatastoreService: a key-value store per experience, ordered
 * stores (leaderboards) and the player's data export.
 *
 * Caps, from the spec: `store` is [A-Za-z0-9_.-]{1,50} or empty (= `default`);
 * `key` 1 to 128 characters (IncrementOrdered: empty = the token's own user
 * id); `scope` empty (= `user`), `user` or `global`; values and patches JSON
 * text of at most 4 MB, counted here in characters (the service also caps the
 * stored bytes); ListKeys limit at most 1000; ListOrdered limit 0 to 100
 * (0 = 10), offset not negative. Ours: user ids and ListKeys prefix/after
 * at most 64 and 128 characters; a Set `version` not negative; values and
 * patches nested at most 32 levels deep (JSON_DEPTH_MAX).
 */
import { z } from "zod";
import { bool, int32, int64, list, message, string, timestamp } from "../wire/fields.js";
import { empty, limit } from "./common.js";
import { jsonText } from "./json-text.js";

/** The two scopes of an entry: one player's data, or shared by the experience's players. */
export const DATASTORE_SCOPES = ["user", "global"] as const;
export const DATASTORE_STORE_PATTERN = /^[A-Za-z0-9_.-]{0,50}$/;
export const DATASTORE_KEY_MAX = 128;
/** 4 MB of JSON text per value. */
export const DATASTORE_VALUE_MAX = 4 * 1024 * 1024;
export const LIST_KEYS_MAX = 1000;
export const LIST_ORDERED_MAX = 100;
export const LIST_ORDERED_DEFAULT = 10;

const store = () => string(z.string().regex(DATASTORE_STORE_PATTERN, { error: "1 to 50 of A-Z a-z 0-9 _ . - (empty = default)" }));
const scope = () =>
  string(z.string().refine((v) => v === "" || (DATASTORE_SCOPES as readonly string[]).includes(v), { error: "one of user, global" }));
const userId = () => string(z.string().max(64, { error: "at most 64 characters" }));
const key = () => string(z.string().min(1, { error: "required" }).max(DATASTORE_KEY_MAX, { error: `at most ${DATASTORE_KEY_MAX} characters` }));

export const DatastoreGetRequest = message("DatastoreGetRequest", {
  store: store(),
  scope: scope(),
  userId: userId(),
  key: key(),
});
export const DatastoreGetResponse = message("DatastoreGetResponse", {
  found: bool(),
  /** JSON text. */
  value: string(),
  version: int64(),
  updatedAt: timestamp(),
});

/** Without `ifVersion` a Set writes unconditionally; with it, only when the entry is at `version` (0 = absent). */
export const DatastoreSetRequest = message("DatastoreSetRequest", {
  store: store(),
  scope: scope(),
  userId: userId(),
  key: key(),
  value: jsonText({ max: DATASTORE_VALUE_MAX, maxRule: "at most 4 MB", holds: "value" }),
  ifVersion: bool(),
  version: int64(z.int().min(0, { error: "must not be negative" })),
});
/** `version` is the entry's version now; when `ok` is false, `value` is the current value ("" when absent). */
export const DatastoreSetResponse = message("DatastoreSetResponse", {
  ok: bool(),
  version: int64(),
  value: string(),
});

/** `patch` is merged into the stored object: each top-level field replaces the stored one, null removes it. */
export const DatastoreUpdateRequest = message("DatastoreUpdateRequest", {
  store: store(),
  scope: scope(),
  userId: userId(),
  key: key(),
  patch: jsonText({ max: DATASTORE_VALUE_MAX, maxRule: "at most 4 MB", holds: "object" }),
});
export const DatastoreUpdateResponse = message("DatastoreUpdateResponse", {
  value: string(),
  version: int64(),
});

export const DatastoreDeleteRequest = message("DatastoreDeleteRequest", {
  store: store(),
  scope: scope(),
  userId: userId(),
  key: key(),
});
export const DatastoreDeleteResponse = message("DatastoreDeleteResponse", { found: bool() });

export const DatastoreListKeysRequest = message("DatastoreListKeysRequest", {
  store: store(),
  scope: scope(),
  userId: userId(),
  prefix: string(z.string().max(DATASTORE_KEY_MAX, { error: `at most ${DATASTORE_KEY_MAX} characters` })),
  limit: limit(LIST_KEYS_MAX),
  /** Continue after this key: the previous page's `next`. */
  after: string(z.string().max(DATASTORE_KEY_MAX, { error: `at most ${DATASTORE_KEY_MAX} characters` })),
});
/** `next` is non-empty when more keys remain; pass it as `after`. */
export const DatastoreListKeysResponse = message("DatastoreListKeysResponse", {
  keys: list(string()),
  next: string(),
});

/** Empty `key`: the token's own user id. */
export const IncrementOrderedRequest = message("IncrementOrderedRequest", {
  store: store(),
  key: string(z.string().max(DATASTORE_KEY_MAX, { error: `at most ${DATASTORE_KEY_MAX} characters` })),
  delta: int64(),
});
export const IncrementOrderedResponse = message("IncrementOrderedResponse", { value: int64() });

/** Top entries by value (descending), or the bottom ones with `ascending`. */
export const ListOrderedRequest = message("ListOrderedRequest", {
  store: store(),
  limit: limit(LIST_ORDERED_MAX),
  ascending: bool(),
  offset: int32(z.int32().min(0, { error: "must not be negative" })),
});
export const OrderedEntry = message("OrderedEntry", {
  key: string(),
  value: int64(),
  /** 1 = first. */
  rank: int64(),
});
export const ListOrderedResponse = message("ListOrderedResponse", { entries: list(OrderedEntry) });

export const ExportedEntry = message("ExportedEntry", {
  experienceId: string(),
  store: string(),
  scope: string(),
  key: string(),
  value: string(),
  version: int64(),
  updatedAt: timestamp(),
});
export const ExportedOrderedEntry = message("ExportedOrderedEntry", {
  experienceId: string(),
  store: string(),
  key: string(),
  value: int64(),
  updatedAt: timestamp(),
});
export const ExportMyDataRequest = empty("ExportMyDataRequest");
export const ExportMyDataResponse = message("ExportMyDataResponse", {
  entries: list(ExportedEntry),
  ordered: list(ExportedOrderedEntry),
});

import {
  addToOrdered, fail, mergeTopLevelText, schemas, setMayWrite, tables, utf8Length,
  type DatastoreService, type OrderedEntryRow, type Tx,
} from "@playfield/core";
import type { GameCaller } from "../../rpc/caller.js";
import type { HandlerContext } from "../../rpc/handler-context.js";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso } from "../identity/accounts.js";
import { requireLiveMember, requireWrite } from "./authority.js";
import { checkValueSize, deleteEntry, resolveEntry, resolveScope, writeEntry } from "./entries.js";
import { admitCall, chargeBytes, saveUsage, usageElsewhere, type CallUsage } from "./usage.js";

/*
 * DatastoreService: a key-value store per experience, ordered stores
 * (leaderboards) and the player's data export. Every game-token call runs in
 * one transaction: the budget check and count, the permission check, the
 * read and the write, so a refused call writes nothing and no two writers
 * ever see the same version. (Only the usage of the experience's other
 * players is read before it: usage.ts says why.)
 */

const LIST_KEYS_DEFAULT = 100;
/** Bytes an ordered entry counts against the cap besides its key: its int64 value. */
const ORDERED_VALUE_BYTES = 8;

/** The game caller of a game-auth method (the router checked the token kind). */
function gameCaller(ctx: HandlerContext): GameCaller {
  if (ctx.caller.kind !== "game") throw fail.denied("this method needs a game token from SessionService.Join");
  return ctx.caller;
}

/**
 * Runs one datastore call: admitted against the experience's budget, then
 * `fn`, all in one transaction (after a read-only one that sums the usage of
 * the experience's other players: usage.ts).
 */
async function datastoreCall<T>(ctx: HandlerContext, fn: (tx: Tx, caller: GameCaller, usage: CallUsage) => Promise<T>): Promise<T> {
  const caller = gameCaller(ctx);
  const elsewhere = await usageElsewhere(ctx.deps.storage, ctx.deps.clock.now(), caller);
  return ctx.deps.storage.transact(async (tx) => {
    // Both start at once, so that a database reads their rows in one round trip; the membership's refusal comes first.
    const admitted = admitCall(tx, ctx.deps, caller, elsewhere);
    admitted.catch(() => undefined);
    await requireLiveMember(tx, ctx.deps, caller);
    const usage = await admitted;
    const answer = await fn(tx, caller, usage);
    await saveUsage(tx, usage);
    return answer;
  });
}

/** DatastoreService: game save data, ordered stores, data export. */
export const datastoreService: ServiceImpl<typeof DatastoreService> = {
  get(req, ctx) {
    return datastoreCall(ctx, async (tx, caller) => {
      const entry = await tx.get(tables.datastoreEntries, resolveEntry(caller, req).id);
      if (!entry) return { found: false, value: "", version: 0, updatedAt: "" };
      return { found: true, value: entry.value, version: entry.version, updatedAt: iso(entry.updatedAt) };
    });
  },

  set(req, ctx) {
    const valueBytes = checkValueSize("value", req.value);
    return datastoreCall(ctx, async (tx, caller, usage) => {
      const at = resolveEntry(caller, req);
      await requireWrite(tx, caller, at.scope === "user" ? { kind: "user", userId: at.ownerId } : { kind: "global" });
      const current = await tx.get(tables.datastoreEntries, at.id);
      if (!setMayWrite(current?.version, req.ifVersion, req.version)) {
        return { ok: false, version: current?.version ?? 0, value: current?.value ?? "" };
      }
      const row = await writeEntry(tx, ctx.deps, usage, at, current, req.value, valueBytes);
      return { ok: true, version: row.version, value: "" };
    });
  },

  update(req, ctx) {
    return datastoreCall(ctx, async (tx, caller, usage) => {
      const at = resolveEntry(caller, req);
      await requireWrite(tx, caller, at.scope === "user" ? { kind: "user", userId: at.ownerId } : { kind: "global" });
      const current = await tx.get(tables.datastoreEntries, at.id);
      // Merged as text: no stored value, of any size or depth, is parsed into objects or walked (the schema checked the patch).
      const value = mergeTopLevelText(current?.value, req.patch);
      if (value === null) throw fail.precondition("key: the stored value is not a JSON object, so a patch cannot merge into it");
      const valueBytes = checkValueSize("patch", value);
      const row = await writeEntry(tx, ctx.deps, usage, at, current, value, valueBytes);
      return { value: row.value, version: row.version };
    });
  },

  delete(req, ctx) {
    return datastoreCall(ctx, async (tx, caller, usage) => {
      const at = resolveEntry(caller, req);
      await requireWrite(tx, caller, at.scope === "user" ? { kind: "user", userId: at.ownerId } : { kind: "global" });
      const current = await tx.get(tables.datastoreEntries, at.id);
      if (!current) return { found: false };
      await deleteEntry(tx, ctx.deps, usage, current);
      return { found: true };
    });
  },

  listKeys(req, ctx) {
    return datastoreCall(ctx, async (tx, caller) => {
      const at = resolveScope(caller, req);
      const limit = req.limit || LIST_KEYS_DEFAULT;
      // Keys with the prefix are one contiguous run of the index: start at the prefix (or after `after`), stop at the first key without it.
      const range = req.after !== "" && req.after >= req.prefix ? { gt: req.after } : req.prefix !== "" ? { gte: req.prefix } : undefined;
      const rows = await tx.query(tables.datastoreEntries, "byOwner", {
        equals: [at.scope, at.ownerId, at.experienceId, at.store], ...(range ? { range } : {}), limit: limit + 1,
      });
      const keys: string[] = [];
      for (const row of rows) {
        if (!row.key.startsWith(req.prefix)) break;
        keys.push(row.key);
      }
      const more = keys.length > limit;
      if (more) keys.length = limit;
      return { keys, next: more ? keys[limit - 1]! : "" };
    });
  },

  incrementOrdered(req, ctx) {
    return datastoreCall(ctx, async (tx, caller, usage) => {
      const store = req.store || "default";
      const key = req.key || caller.userId;
      await requireWrite(tx, caller, { kind: "ordered", key });
      const id = tables.orderedEntryId(caller.experienceId, store, key);
      const current = await tx.get(tables.orderedEntries, id);
      const value = addToOrdered(current?.value ?? 0, req.delta);
      if (value === null) throw fail.precondition(`delta: the value would leave the int64 range this server keeps (±${Number.MAX_SAFE_INTEGER})`);
      if (!current) chargeBytes(usage, utf8Length(key) + ORDERED_VALUE_BYTES);
      const row: OrderedEntryRow = { id, experienceId: caller.experienceId, store, key, value, updatedAt: ctx.deps.clock.now() };
      await tx.put(tables.orderedEntries, row);
      return { value };
    });
  },

  listOrdered(req, ctx) {
    return datastoreCall(ctx, async (tx, caller) => {
      const limit = req.limit || schemas.LIST_ORDERED_DEFAULT;
      const rows = await tx.query(tables.orderedEntries, req.ascending ? "bottom" : "top", {
        equals: [caller.experienceId, req.store || "default"], offset: req.offset, limit,
      });
      return { entries: rows.map((row, i) => ({ key: row.key, value: row.value, rank: req.offset + i + 1 })) };
    });
  },

  async exportMyData(_req, ctx) {
    const { userId } = ctx.user();
    return ctx.deps.storage.transact(async (tx) => {
      const [entries, ordered] = await Promise.all([
        tx.query(tables.datastoreEntries, "byOwner", { equals: ["user", userId] }),
        tx.query(tables.orderedEntries, "byKey", { equals: [userId] }),
      ]);
      return {
        entries: entries.map((e) => ({
          experienceId: e.experienceId, store: e.store, scope: e.scope, key: e.key, value: e.value, version: e.version, updatedAt: iso(e.updatedAt),
        })),
        ordered: ordered.map((o) => ({ experienceId: o.experienceId, store: o.store, key: o.key, value: o.value, updatedAt: iso(o.updatedAt) })),
      };
    });
  },
};

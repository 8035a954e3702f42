import {
  addToOrdered, budgetWindowStart, fail, mergeTopLevelText, schemas, setMayWrite, tables, transactAfterReads, utf8Length,
  type DatastoreEntryRow, type DatastoreHistoryRow, type DatastoreService, type OrderedEntryRow, type Tx,
} from "@playfield/core";
import type { GameCaller } from "../../rpc/caller.js";
import type { HandlerContext } from "../../rpc/handler-context.js";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso } from "../identity/accounts.js";
import { inTurn } from "../turns.js";
import { requireLiveMember, requireWrite } from "./authority.js";
import { checkValueSize, deleteEntry, resolveEntry, resolveScope, writeEntry, type EntryAddress, type ScopeFields } from "./entries.js";
import { ignore } from "../early-reads.js";
import { expiredOldValues, leasePurge, type PurgeLease } from "./history.js";
import { countInProcess, experienceCounts } from "./counts-in-process.js";
import type { UsageElsewhere } from "./usage-copy.js";
import {
  admitCall, chargeBytes, checkBudget, leaseShard, playerSeenId, saveUsage, usageElsewhere, type CallUsage, type ShardLease,
} from "./usage.js";

/*
 * DatastoreService: a key-value store per experience, ordered stores
 * (leaderboards) and the player's data export. Every game-token call that
 * writes runs in one transaction: the budget check and count, the
 * permission check, the read and the write, so a refused call writes
 * nothing and no two writers ever see the same version. (Only the usage of
 * the experience's other shards, and a write's expired old values, are read
 * before it, in a snapshot: usage.ts and history.ts say why.) The
 * transaction's first reads (the usage shard, the player seen, the
 * membership and the entry a call names) are asked for together: on a
 * database they go in one message, with the reads before it; the player
 * seen and the membership come from the process's copies when it holds
 * them (`getCached`: usage.ts and authority.ts say why). A call that
 * writes nothing but its count (Get, ListKeys, ListOrdered) reads in a
 * read-only transaction and is counted in the process (`readingCall`,
 * counts-in-process.ts).
 */

const LIST_KEYS_DEFAULT = 100;
/** Bytes an ordered entry counts against the cap besides its key: its int64 value. */
const ORDERED_VALUE_BYTES = 8;

/** The game caller of a game-auth method (the router checked the token kind). */
function gameCaller(ctx: HandlerContext): GameCaller {
  if (ctx.caller.kind !== "game") throw fail.denied("this method needs a game token from SessionService.Join");
  return ctx.caller;
}

/** What a call reads besides its usage: before its transaction or with its first reads (one of `start` and `snapshot`). */
interface CallReads<S> {
  /** Reads started with the admission, in the transaction's first statements (the entry a write changes). */
  start?: (tx: Tx, caller: GameCaller) => Promise<S>;
  /**
   * The reads of a call that writes nothing but its count (Get, ListKeys,
   * ListOrdered) when it runs as a writing call does (`readingCall`), from
   * the snapshot just before the transaction: what they read is as fresh,
   * and takes no serializable read locks that writers of those rows would
   * conflict with.
   */
  snapshot?: (tx: Tx, caller: GameCaller) => Promise<S>;
  /** A write: it purges expired old values (when no other write of this process is purging, and a look is due: history.ts). */
  write?: boolean;
}

/** What the call's function is handed. */
interface Call<S> {
  tx: Tx;
  caller: GameCaller;
  usage: CallUsage;
  /** What `start` or `snapshot` read. */
  started: S;
  /** Expired old values the write purges. */
  expired: readonly DatastoreHistoryRow[];
}

/**
 * Runs one datastore call: admitted against the experience's budget, then
 * `fn`, all in one transaction, after the reads before it (the usage of the
 * experience's other shards; a write's expired old values; a reading call's
 * reads).
 */
async function datastoreCall<T, S = undefined>(ctx: HandlerContext, reads: CallReads<S>, fn: (call: Call<S>) => Promise<T>): Promise<T> {
  const caller = gameCaller(ctx);
  const { deps } = ctx;
  // Not beside this process's background write of the experience's counts (counts-in-process.ts).
  const counts = experienceCounts(deps, caller.experienceId, budgetWindowStart(deps.clock.now()));
  const entering = counts.enter();
  if (entering !== null) await entering;
  // Taken at the first run (once a connection is had), kept through runs again, given back when the call is done.
  let shard: ShardLease | undefined;
  let purge: PurgeLease | null | undefined;
  // The counts of the run that commits: what it took of this process's pending calls, given back by a run that does not.
  let usage: CallUsage | undefined;
  // Whether that run changed only its count, which then goes to this process's counts instead of its shard row.
  let onlyCounted = false;
  try {
    const answer = await transactAfterReads(deps.storage, async (tx): Promise<ReadsBefore<S>> => {
      const now = deps.clock.now();
      shard ??= leaseShard(counts, caller.userId);
      if (reads.write) purge ??= leasePurge(deps.storage, now);
      // Its refusal (a malformed request) is met after the membership's and the budget's, as if read in the transaction.
      const seen = reads.snapshot?.(tx, caller);
      seen?.catch(ignore);
      // Asked for together (one round trip on a database), without a Promise.all's objects.
      // Under half its limits, the experience's usage as this process keeps it (usage-copy.ts): then nothing to read here but the
      // purge's. Not for a reading call run as a writing call (`snapshot`): it runs so because its process's sum is stale, and reads it.
      const { rows, window } = counts;
      const served = reads.snapshot === undefined ? rows.served(now, shard.shard, deps.config.datastore, window.pending + window.writing) : null;
      const elsewhereRead = served ?? usageElsewhere(tx, now, caller.experienceId, shard.shard, rows);
      const expiredRead = purge ? expiredOldValues(tx, now - deps.config.datastore.retentionMs) : null;
      expiredRead?.catch(ignore);
      const elsewhere = await elsewhereRead;
      const expired = expiredRead ? await expiredRead : NONE_EXPIRED;
      if (purge) purge.found = expired.length;
      return { elsewhere, expired, seen };
    }, async (tx, read) => {
      // A run again: what the last run took is pending again, for this one to take.
      if (usage) usage.window.giveBack(usage.taken);
      usage = undefined;
      onlyCounted = false;
      const started = reads.start?.(tx, caller) ?? read.then(seenOf);
      const admitted = admitCall(tx, deps, caller, shard!.shard, read, counts);
      const member = requireLiveMember(tx, deps, caller);
      started.catch(ignore);
      admitted.catch(ignore);
      // Awaited after the transaction's own first reads (by admitCall and below), whatever the adapter hands.
      read.catch(ignore);
      // The membership's refusal comes first, then the budget's.
      await member;
      const run = await admitted;
      usage = run;
      const { expired } = await read;
      const bytesBefore = run.row.storedBytes;
      const answer = await fn({ tx, caller, usage: run, started: (await started) as S, expired });
      // A call that changed no stored bytes and saw no new player has only its count to write: it is counted in the
      // process instead, as a reading call is, so that calls do not all write (and conflict on) the usage shards.
      onlyCounted = !run.newPlayer && run.row.storedBytes === bytesBefore;
      if (onlyCounted) return answer;
      // The pending reading calls it was checked with go into its shard row (and back to pending if this run does not commit).
      run.taken = run.window.take();
      run.row.requests += run.taken;
      await saveUsage(tx, run);
      return answer;
    });
    if (usage !== undefined && onlyCounted) {
      // The sum it read, its own call not included: that one is now this process's to write.
      if (!usage.elsewhere.copied) usage.window.wrote(0, 0, usage.elsewhere.requests + usage.row.requests - 1);
      countInProcess(deps, caller.experienceId, usage.window.start);
    } else if (usage !== undefined) {
      if (usage.elsewhere.copied) usage.window.counted(usage.taken, 1);
      else usage.window.wrote(usage.taken, 1, usage.elsewhere.requests + usage.row.requests);
      counts.rows.committed(usage.row);
    }
    return answer;
  } catch (error) {
    usage?.window.giveBack(usage.taken);
    throw error;
  } finally {
    counts.leave();
    shard?.release();
    purge?.release(deps.clock.now());
  }
}

/** What a call read just before its transaction. */
interface ReadsBefore<S> {
  elsewhere: UsageElsewhere;
  expired: readonly DatastoreHistoryRow[];
  seen: Promise<S> | undefined;
}

/** The expired old values of a write that does not purge (one array for all). */
const NONE_EXPIRED: readonly DatastoreHistoryRow[] = Object.freeze([]);

/** What a reading call's snapshot read (`CallReads.snapshot`), once read. */
function seenOf<S>(before: ReadsBefore<S>): Promise<S> | undefined {
  return before.seen;
}

/**
 * Runs a call that writes nothing but its count (Get, ListKeys, ListOrdered):
 * in a read-only transaction of the rows a process keeps copies of (the
 * membership, the player seen, an entry: on PostgreSQL, no message once
 * copied), its budget checked against this process's counts and counted in
 * them (counts-in-process.ts). When this process has no fresh sum of the
 * experience's calls, or the player was never seen (recorded by a write),
 * it runs as a writing call does (`readInTransaction`).
 */
async function readingCall<T, S>(ctx: HandlerContext, read: (tx: Tx, caller: GameCaller) => Promise<S>, fn: (started: S) => T): Promise<T> {
  const caller = gameCaller(ctx);
  const { deps } = ctx;
  const now = deps.clock.now();
  const start = budgetWindowStart(now);
  const window = experienceCounts(deps, caller.experienceId, start).window;
  if (!window.fresh) return readInTransaction(ctx, read, fn);
  const found = await deps.storage.transact(async (tx) => {
    const started = read(tx, caller);
    const seen = tx.get(tables.datastorePlayers, playerSeenId(caller));
    // Asked for with the others (copied, or in the same message): a silent member's check reads it.
    const session = tx.get(tables.gameSessions, caller.sessionId);
    started.catch(ignore);
    seen.catch(ignore);
    session.catch(ignore);
    // In the order of a writing call's refusals: the membership's, the budget's, then the request's.
    await requireLiveMember(tx, deps, caller, session);
    if (!(await seen)) return null;
    await checkBudget(tx, deps, caller, window.usage, now);
    return { started: await started };
  }, { readOnly: true });
  if (found === null) return readInTransaction(ctx, read, fn);
  countInProcess(deps, caller.experienceId, start);
  return fn(found.started);
}

/** A reading call run as a writing call is: its reads from the snapshot before the transaction, counted in it. */
function readInTransaction<T, S>(ctx: HandlerContext, read: (tx: Tx, caller: GameCaller) => Promise<S>, fn: (started: S) => T): Promise<T> {
  return datastoreCall(ctx, { snapshot: read }, async ({ started }) => fn(started));
}

/**
 * The turn of the entry a write names (turns.ts): writes of one entry in this
 * server run one after another instead of conflicting. From the request's
 * fields as given, so that a malformed request still meets its refusal in
 * the call, after the membership's and the budget's; two spellings of one
 * entry (an empty store and "default") only miss each other's turn.
 */
function entryTurn(ctx: HandlerContext, req: ScopeFields & { key: string }): string {
  const caller = gameCaller(ctx);
  return `entry:${caller.experienceId}\u0000${req.store}\u0000${req.scope}\u0000${req.userId || caller.userId}\u0000${req.key}`;
}

/** Reads the entry a request names. */
function entryOf(req: ScopeFields & { key: string }): CallReads<{ at: EntryAddress; current: DatastoreEntryRow | undefined }>["start"] {
  return async (tx, caller) => {
    const at = resolveEntry(caller, req);
    return { at, current: await tx.get(tables.datastoreEntries, at.id) };
  };
}

/** DatastoreService: game save data, ordered stores, data export. */
export const datastoreService: ServiceImpl<typeof DatastoreService> = {
  get(req, ctx) {
    return readingCall(ctx, entryOf(req)!, ({ current: entry }) => {
      if (!entry) return { found: false, value: "", version: 0, updatedAt: "" };
      return { found: true, value: entry.value, version: entry.version, updatedAt: iso(entry.updatedAt) };
    });
  },

  set(req, ctx) {
    const valueBytes = checkValueSize("value", req.value);
    return inTurn(ctx.deps, entryTurn(ctx, req), () => datastoreCall(ctx, { start: entryOf(req), write: true }, async ({ tx, caller, usage, started: { at, current }, expired }) => {
      await requireWrite(tx, caller, at.scope === "user" ? { kind: "user", userId: at.ownerId } : { kind: "global" });
      if (!setMayWrite(current?.version, req.ifVersion, req.version)) {
        return { ok: false, version: current?.version ?? 0, value: current?.value ?? "" };
      }
      const row = await writeEntry(tx, ctx.deps, usage, at, current, req.value, valueBytes, expired);
      return { ok: true, version: row.version, value: "" };
    }));
  },

  update(req, ctx) {
    return inTurn(ctx.deps, entryTurn(ctx, req), () => datastoreCall(ctx, { start: entryOf(req), write: true }, async ({ tx, caller, usage, started: { at, current }, expired }) => {
      await requireWrite(tx, caller, at.scope === "user" ? { kind: "user", userId: at.ownerId } : { kind: "global" });
      // Merged as text: no stored value, of any size or depth, is parsed into objects or walked (the schema checked the patch).
      const value = mergeTopLevelText(current?.value, req.patch);
      if (value === null) throw fail.precondition("key: the stored value is not a JSON object, so a patch cannot merge into it");
      const valueBytes = checkValueSize("patch", value);
      const row = await writeEntry(tx, ctx.deps, usage, at, current, value, valueBytes, expired);
      return { value: row.value, version: row.version };
    }));
  },

  delete(req, ctx) {
    return inTurn(ctx.deps, entryTurn(ctx, req), () => datastoreCall(ctx, { start: entryOf(req), write: true }, async ({ tx, caller, usage, started: { at, current }, expired }) => {
      await requireWrite(tx, caller, at.scope === "user" ? { kind: "user", userId: at.ownerId } : { kind: "global" });
      if (!current) return { found: false };
      await deleteEntry(tx, ctx.deps, usage, current, expired);
      return { found: true };
    }));
  },

  listKeys(req, ctx) {
    const limit = req.limit || LIST_KEYS_DEFAULT;
    return readingCall(ctx, async (tx, caller) => {
      const at = resolveScope(caller, req);
      // Keys with the prefix are one contiguous run of the index: start at the prefix (or after `after`), stop at the first key without it.
      const range = req.after !== "" && req.after >= req.prefix ? { gt: req.after } : req.prefix !== "" ? { gte: req.prefix } : undefined;
      return tx.query(tables.datastoreEntries, "byOwner", {
        equals: [at.scope, at.ownerId, at.experienceId, at.store], ...(range ? { range } : {}), limit: limit + 1,
      });
    }, (rows) => {
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
    const store = req.store || "default";
    const player = gameCaller(ctx);
    // One key's increments in turn (turns.ts), as an entry's writes.
    return inTurn(ctx.deps, `ordered:${player.experienceId}\u0000${store}\u0000${req.key || player.userId}`, () => datastoreCall(ctx, {
      start: (tx, caller) => tx.get(tables.orderedEntries, tables.orderedEntryId(caller.experienceId, store, req.key || caller.userId)),
    }, async ({ tx, caller, usage, started: current }) => {
      const key = req.key || caller.userId;
      await requireWrite(tx, caller, { kind: "ordered", key });
      const value = addToOrdered(current?.value ?? 0, req.delta);
      if (value === null) throw fail.precondition(`delta: the value would leave the int64 range this server keeps (±${Number.MAX_SAFE_INTEGER})`);
      if (!current) chargeBytes(usage, utf8Length(key) + ORDERED_VALUE_BYTES);
      const row: OrderedEntryRow = {
        id: tables.orderedEntryId(caller.experienceId, store, key), experienceId: caller.experienceId, store, key, value, updatedAt: ctx.deps.clock.now(),
      };
      await tx.put(tables.orderedEntries, row);
      return { value };
    }));
  },

  listOrdered(req, ctx) {
    const limit = req.limit || schemas.LIST_ORDERED_DEFAULT;
    return readingCall(ctx, (tx, caller) => tx.query(tables.orderedEntries, req.ascending ? "bottom" : "top", {
      equals: [caller.experienceId, req.store || "default"], offset: req.offset, limit,
    }), (rows) => ({ entries: rows.map((row, i) => ({ key: row.key, value: row.value, rank: req.offset + i + 1 })) }));
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

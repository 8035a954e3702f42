/*
 * The storage port on PostgreSQL (a server through node-postgres, or
 * embedded PGlite): every transaction is one SERIALIZABLE database
 * transaction on a session of its own, run again (bounded, with jitter)
 * when the database reports a serialization failure or a deadlock.
 *
 * A table is created (or migrated) the first time a transaction uses it,
 * or up front with `init`: the transaction that meets an unknown table is
 * rolled back, the table made, and the transaction run again, which the
 * port allows (a transaction's function has no side effects outside it).
 */
import { UniqueViolation, type CountQuery, type Query, type Storage, type TableDef, type TransactOptions, type Tx } from "@playfield/core";
import { bucketBounds, clearCountsCtes, DEFAULT_BUCKET_ROWS, mergeSql, splitSql, type BucketSizes } from "./counted-index.js";
import { encodeKey } from "./key-encoding.js";
import { countSql, selectSql } from "./query-sql.js";
import { backoffMs, DEFAULT_MAX_ATTEMPTS, isRetryable } from "./retry-policy.js";
import { decodeRow, encodeRow } from "./row-codec.js";
import { ABSENT, CachedReadTx, RowCache, type Copy, type RowRead } from "./row-cache.js";
import { readNotice, RowNotices } from "./row-notices.js";
import { restoreSnapshot, takeSnapshot } from "./sql-snapshot.js";
import { countsTable, ensureTables, managedTables, recountTable } from "./schema-migrations.js";
import { createQueue, type SqlDatabase, type SqlSession } from "./sql-database.js";
import { Pipeline, ReadsAfterCommit, StaleCopy, type Statement } from "./tx-pipeline.js";
import { encodedKeyOf, ident, type IndexLayout, type TableLayout } from "./table-layout.js";

/** Options of the storage on an SQL database. */
export interface SqlStorageOptions {
  /** The PostgreSQL schema holding the tables (created when missing; default "public"). */
  schema?: string;
  /** How many times a transaction runs at most when it keeps conflicting (default 40). */
  maxAttempts?: number;
  /**
   * Index entries per bucket of a counted index's counts (default 1,024;
   * docs/storage.md weighs it). Tests make it small, so that a few rows split and merge buckets.
   */
  countedBucketRows?: number;
  /**
   * How long a cached row (a table declared `cachedReads`) is kept at most,
   * in ms (default 5,000; 0 keeps none). Writes through Playfield drop it at
   * once; the bound is for writes made outside it. docs/storage.md, "Cached rows".
   */
  rowCacheMs?: number;
}

/** Hands rows of one table to a running `SqlStorage.load`. */
export type BulkPut = <R>(table: TableDef<R>, rows: readonly R[]) => Promise<void>;

/** The storage port on PostgreSQL or PGlite, with what a process needs around it. */
export interface SqlStorage extends Storage {
  /** The schema holding the tables. */
  readonly schema: string;
  /**
   * Writes many rows at once, outside any transaction of the port, for
   * imports and benchmarks: every `put` of `fill` (rows of one of `tables`)
   * goes in multi-row inserts, all of them in one database transaction, so
   * a load that fails or a process killed during it leaves nothing behind
   * (a row replaces the one with its primary key; two rows with one primary
   * key, or a unique key held twice, fail the whole load). The counted
   * indexes of the tables written are recounted once at the end, then those
   * tables are vacuumed and analyzed.
   *
   * @example
   * await storage.load([tables.orderedEntries], (put) => put(tables.orderedEntries, rows));
   */
  load(tables: readonly TableDef<never>[], fill: (put: BulkPut) => Promise<void>): Promise<void>;
  /** How many times a transaction was run again after a serialization failure or deadlock, since the storage opened. */
  readonly retries: number;
  /** Closes the database connections. */
  close(): Promise<void>;
}

/**
 * Creates the storage on a database from `pgDatabase` or `pgliteDatabase`.
 *
 * @example
 * const storage = createSqlStorage(pgDatabase(process.env.DATABASE_URL!), { schema: "playfield" });
 */
export function createSqlStorage(database: SqlDatabase, options: SqlStorageOptions = {}): SqlStorage {
  const schema = options.schema ?? "public";
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const sizes: BucketSizes = { rows: options.countedBucketRows ?? DEFAULT_BUCKET_ROWS };
  if (!Number.isInteger(sizes.rows) || sizes.rows < 2) throw new Error(`countedBucketRows must be a whole number ≥ 2, got ${sizes.rows}`);
  if (!/^[a-z_][a-z0-9_]*$/.test(schema) || schema.length > 63) {
    throw new Error(`schema ${JSON.stringify(schema)}: use lowercase letters, digits and _, at most 63`);
  }
  const known = new Map<string, TableLayout>();
  const rows = openRowCache(database, schema, options.rowCacheMs ?? DEFAULT_ROW_CACHE_MS);
  // Table creation takes turns within the process (the advisory lock orders processes).
  const ensuring = createQueue();

  const layoutOf = (def: TableDef<unknown>): TableLayout | undefined => {
    const layout = known.get(def.name);
    return layout?.def === def ? layout : undefined;
  };

  // Whether this process has brought the schema's bookkeeping up to date (init does even with no table).
  let migrated = false;
  const ensure = (defs: readonly TableDef<unknown>[]) => ensuring(async () => {
    const missing = defs.filter((def) => layoutOf(def) === undefined);
    if (missing.length === 0 && migrated) return;
    const layouts = await database.session((session) => ensureTables(session, schema, missing, sizes));
    await database.durable?.();
    migrated = true;
    for (const layout of layouts) known.set(layout.def.name, layout);
  });

  // Transactions that keep conflicting retry one at a time (in this process), so that
  // writers of one hot row stop colliding with each other and finish in a bounded number of runs.
  const retryLane = createQueue();
  let retries = 0;

  async function transact<T>(fn: (tx: Tx) => Promise<T>, options: TransactOptions = {}): Promise<T> {
    if (options.readOnly === true && rows?.cache.serving) {
      // From copies alone when every read finds one: nothing goes to the database.
      const cached = new CachedReadTx(rows.cache);
      try {
        const value = await fn(cached);
        if (!cached.missed) return value;
      } catch (error) {
        if (!cached.missed) throw error;
      }
    }
    // A read-only transaction first tries to read once and commit in the same round trip; one that reads again runs in full.
    let readOnce = options.readOnly === true;
    for (let attempt = 1, tablesMade = 0; ;) {
      const mode: TxMode = { readOnly: options.readOnly === true, readOnce };
      const run: RunCopies = { written: [], checked: [] };
      const once = () => runOnce(database, fn, layoutOf, mode, sizes, rows, run);
      const outcome = attempt > OWN_TURNS ? await retryLane(once) : await once();
      // This process's copies of the rows written: as committed, or dropped; other processes drop theirs when the notice comes.
      for (const row of run.written) rows!.cache.wrote(row.write, outcome.kind === "done" ? row.row : undefined, row.text);
      if (outcome.kind === "done") {
        if (run.written.length > 0) rows?.notices?.add(run.written.map((row) => [row.table, row.id]));
        if (!mode.readOnly) await database.durable?.();
        return outcome.value;
      }
      if (outcome.kind === "failed") throw outcome.error;
      if (outcome.kind === "stale") {
        // A copy it took was not the row any more: it goes, and the next run reads the row. Not a conflict: no wait.
        for (const [table, id] of run.checked) rows!.cache.drop(table, id);
        if (attempt++ >= maxAttempts) throw new Error(`transaction gave up after ${attempt - 1} attempts: its copies of rows kept changing`);
        continue;
      }
      if (outcome.kind === "reads-after-commit") {
        readOnce = false;
        continue;
      }
      if (outcome.kind === "unknown-table") {
        // Not a conflict: no attempt spent. Bounded all the same, against a definition that never settles.
        if (++tablesMade > 100) throw new Error(`table ${outcome.table.name} could not be set up`);
        await ensure([outcome.table]);
        continue;
      }
      if (attempt >= maxAttempts) {
        throw new Error(`transaction gave up after ${attempt} attempts: it kept conflicting with concurrent transactions`, { cause: outcome.error });
      }
      retries++;
      await sleep(backoffMs(attempt++));
    }
  }

  return {
    schema,
    get retries() { return retries; },
    stats: () => (database.pool ? { retries, pool: database.pool() } : { retries }),
    transact,
    transactAfterReads: (reads, fn) => transact(async (tx) => {
      // From copies alone when every read finds one, as a read-only transaction's may (before `fn` asks for anything);
      // else first in the transaction's first message, in a read-only transaction of their own.
      const read = (rows?.cache.serving ? (await fromCopies(rows.cache, reads))?.read : undefined) ?? reads((tx as SqlTx).before());
      read.catch(() => undefined);
      const value = await fn(tx, read);
      await read;
      return value;
    }),
    init: (tables) => ensure(tables as readonly TableDef<never>[] as readonly TableDef<unknown>[]),
    async clear() {
      await database.session(async (session) => {
        const tables = await managedTables(session, schema);
        if (tables.length === 0) return;
        // One statement, one round trip; DELETE rather than TRUNCATE, which makes new files for every table (slow on PGlite).
        const deletes = tables.flatMap(({ name, layout }, i) => [
          `d${i} AS (DELETE FROM ${ident(schema)}.${ident(name)})`,
          ...Object.values(layout.indexes).flatMap((index) => (index.counted ? clearCountsCtes(countsTable(schema, name, index.column), `c${i}_${index.column}`) : [])),
        ]);
        await session.query(`WITH ${deletes.join(", ")} SELECT 1`);
      });
      await database.durable?.();
      await rows?.dropAll();
    },
    // Copies of the stored rows, keys included, for test suites that seed once and restore before each case.
    snapshot: () => database.session((session) => takeSnapshot(session, schema)),
    async restore(snapshot) {
      await ensure([]);
      await database.session((session) => restoreSnapshot(session, schema, snapshot, sizes));
      await database.durable?.();
      await rows?.dropAll();
    },
    async load(named, fill) {
      const defs = named as readonly TableDef<never>[] as readonly TableDef<unknown>[];
      await ensure(defs);
      await database.session((session) => loadTables(session, schema, sizes, (def) => {
        const table = defs.includes(def) ? layoutOf(def) : undefined;
        if (!table) throw new Error(`load: table ${def.name} is not among the tables the load names`);
        return table;
      }, fill));
      await database.durable?.();
      await rows?.dropAll();
    },
    async close() {
      await rows?.stop();
      await database.close();
    },
  };
}

/** What `reads` answer from copies alone (settled), or undefined when one of them found no copy. */
async function fromCopies<B>(cache: RowCache, reads: (tx: Tx) => Promise<B>): Promise<{ read: Promise<B> } | undefined> {
  const cached = new CachedReadTx(cache);
  const read = reads(cached);
  await read.then(() => undefined, () => undefined);
  return cached.missed ? undefined : { read };
}

/** How long a cached row is kept at most (writes outside Playfield). */
// Each copy costs a read once per this time: a short one makes a player's frequent calls miss their copies.
const DEFAULT_ROW_CACHE_MS = 5_000;

/** A row a run wrote to a table whose copies are kept (`keepsCopies`), to keep as committed (`RowCache.wrote`). */
interface WrittenRow {
  table: string;
  id: string;
  write: RowRead;
  /** What it wrote last (`ABSENT`: deleted; undefined: not known, as after a put refused for a unique key). */
  row: unknown;
  text: string | null;
}

/** What one run of a transaction did with copies: the rows it wrote to cached tables, the copies it took ([table, id]). */
interface RunCopies {
  written: WrittenRow[];
  checked: [string, string][];
}

/** The row cache of a storage, and how its writes tell other processes. */
interface RowCacheOf {
  cache: RowCache;
  /** The notices of this process's writes to the others; none when no other process can write the database. */
  notices: RowNotices | null;
  /** Drops every copy, here and (by a notice) in other processes. */
  dropAll(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The row cache on `database`: with one process (PGlite) its own writes are
 * all there are; with a server, other processes' writes come as notices on a
 * channel of the schema, and copies are served only while listening. None
 * when `ttlMs` is 0 or the database cannot listen.
 */
function openRowCache(database: SqlDatabase, schema: string, ttlMs: number): RowCacheOf | undefined {
  if (!(ttlMs > 0)) return undefined;
  if (database.oneProcess === true) {
    const cache = new RowCache(ttlMs, true);
    return { cache, notices: null, dropAll: async () => cache.dropAll(), stop: async () => undefined };
  }
  if (database.listen === undefined) return undefined;
  const cache = new RowCache(ttlMs, false);
  const channel = `playfield_rows:${schema}`;
  const listener = database.listen(channel, {
    notice(payload) {
      const rows = readNotice(payload);
      if (rows === null) cache.dropAll();
      else for (const [table, id] of rows) cache.drop(table, id);
    },
    listening(on) {
      // Notices may have been missed while not listening: start again from nothing.
      cache.dropAll();
      cache.serving = on;
    },
  });
  const notices = new RowNotices((payload) => listener.notify(payload));
  return {
    cache, notices,
    async stop() {
      await notices.idle();
      await listener.stop();
    },
    async dropAll() {
      cache.dropAll();
      await notices.all();
    },
  };
}

/** How many runs a transaction makes side by side with others before it waits for the retry lane. */
const OWN_TURNS = 2;

const BEGIN = "BEGIN ISOLATION LEVEL SERIALIZABLE";
const BEGIN_READ_ONLY = "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY";
// The reads before a transaction: a snapshot's, which a read-only transaction that commits at once may read without SERIALIZABLE's predicate locks.
const BEGIN_BEFORE = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";

/** How a run goes: read-only or not, and (read-only) whether it commits with its first reads. */
interface TxMode {
  readOnly: boolean;
  readOnce: boolean;
}

type Outcome<T> =
  | { kind: "done"; value: T }
  | { kind: "failed"; error: unknown }
  | { kind: "conflict"; error: unknown }
  | { kind: "unknown-table"; table: TableDef<unknown> }
  | { kind: "reads-after-commit" }
  | { kind: "stale" };

/** Thrown inside a transaction that uses a table not set up yet: it is rolled back, the table made, and run again. */
class UnknownTable extends Error {
  override name = "UnknownTable";
  constructor(readonly table: TableDef<unknown>) {
    super(`table ${table.name} is being set up: the transaction will run again`);
  }
}

async function runOnce<T>(
  database: SqlDatabase, fn: (tx: Tx) => Promise<T>, layoutOf: (def: TableDef<unknown>) => TableLayout | undefined,
  mode: TxMode, sizes: BucketSizes, rows: RowCacheOf | undefined, run: RunCopies,
): Promise<Outcome<T>> {
  const pipeline = new Pipeline(database, { begin: mode.readOnly ? BEGIN_READ_ONLY : BEGIN, readOnly: mode.readOnly, commitFirst: mode.readOnce, beginBefore: BEGIN_BEFORE });
  try {
    // A database that sends no whole transactions together gains nothing from a connection taken late; and on PGlite
    // (one connection, taking turns) a transaction that holds it from its start never finds its copies made stale by
    // another's commit in the meantime (taken late, one player's calls checked copies of one row and ran again).
    if (database.whole === undefined) await pipeline.hold();
    return await runOn(pipeline, fn, new SqlTx(pipeline, layoutOf, mode.readOnly, sizes, rows, run));
  } finally {
    await pipeline.release();
  }
}

async function runOn<T>(pipeline: Pipeline, fn: (tx: Tx) => Promise<T>, tx: SqlTx): Promise<Outcome<T>> {
  let value: T;
  try {
    value = await fn(tx);
  } catch (error) {
    tx.open = false;
    await pipeline.rollback();
    return failure(pipeline.failure ?? error, error);
  }
  tx.open = false;
  // The function may have caught a failed statement and gone on: the
  // transaction is aborted all the same, and COMMIT would roll it back quietly.
  // (A function that ran no statement opened no database transaction.)
  try {
    await pipeline.commit();
  } catch (error) {
    await pipeline.rollback();
    return failure(error, error);
  }
  return { kind: "done", value };
}

/** What a failed run means: `cause` decides (the first failed statement, if any); `thrown` is what the caller sees. */
function failure<T>(cause: unknown, thrown: unknown): Outcome<T> {
  if (cause instanceof UnknownTable) return { kind: "unknown-table", table: cause.table };
  if (cause instanceof ReadsAfterCommit) return { kind: "reads-after-commit" };
  if (cause instanceof StaleCopy) return { kind: "stale" };
  if (isRetryable(cause)) return { kind: "conflict", error: cause };
  return { kind: "failed", error: thrown };
}

/**
 * A transaction on `pipeline`: the port's Tx. A class, so that each
 * transaction makes one object rather than a dozen functions.
 */
class SqlTx implements Tx {
  open = true;
  /**
   * Unique keys this transaction looked up and found no row holding (`<table> <column> <hex key>`), not written since:
   * a put holding one cannot clash (its check would read the same snapshot), so it need not be waited for.
   */
  private absent: Set<string> | undefined;
  /**
   * Copies of rows (`<table> <id>`) a write of the row must check, with their stored text: a `get`'s, whose check is
   * queued (`statement`: made one with the write while not sent yet), or `getCached`'s, served unchecked (none).
   */
  private copied: Map<string, { text: string; statement?: Statement }> | undefined;
  /** The row cache's `drops` when this transaction started: reads keep copies only if none was dropped since (`RowCache.reading`). */
  private readonly since: number;

  constructor(
    private readonly pipeline: Pipeline,
    private readonly layoutOf: (def: TableDef<unknown>) => TableLayout | undefined,
    private readonly readOnly: boolean,
    private readonly sizes: BucketSizes,
    private readonly rows: RowCacheOf | undefined,
    /** What this run does with copies: the rows it writes, the copies it takes. */
    private readonly copies: RunCopies,
    /** Reads of the read-only transaction sent before this one (`transactAfterReads`). */
    private readonly first = false,
  ) {
    this.since = rows?.cache.drops ?? 0;
  }

  /** A read-only Tx whose reads go before this transaction, in its first message. */
  before(): SqlTx {
    // What it reads is kept as a read-only transaction's reads are: rows as committed when its snapshot was taken.
    return new SqlTx(this.pipeline, this.layoutOf, true, this.sizes, this.rows, this.copies, true);
  }

  /** `prepare`: false for a query or count, whose best plan depends on its values (Pipeline.run). */
  private run<Row>(text: string, params: readonly unknown[], prepare = true): Promise<Row[]> {
    return this.first ? this.pipeline.runBefore<Row>(text, params, prepare) : this.pipeline.run<Row>(text, params, prepare);
  }

  get<R>(def: TableDef<R>, id: string) {
    const copy = this.checkedCopy(def as TableDef<unknown>, id);
    if (copy !== undefined) return Promise.resolve(copy.row === ABSENT ? undefined : copy.row as R);
    // What it reads of a cached table is kept, unless the row was written meanwhile.
    return this.read(def, id, true);
  }

  /**
   * In a writing transaction, the copy of a row of a cached table this process holds (of the row or of its absence),
   * taken instead of a read: a statement that goes with the next message or COMMIT checks that the row is still
   * exactly that, and fails the transaction otherwise (then the copy goes and it runs again, reading). Checked in the
   * transaction, a copy is as good as a read there (the check reads the row under SERIALIZABLE as the read would),
   * and saves the round trip: a call whose reads all find copies is one message, `BEGIN; checks; writes; COMMIT`.
   */
  private checkedCopy(def: TableDef<unknown>, id: string): Copy | undefined {
    const cache = keepsCopies(def) && !this.readOnly && !this.first ? this.rows?.cache : undefined;
    if (cache === undefined || this.wrote(def.name, id)) return undefined;
    const copy = cache.copy(def.name, id);
    if (copy === undefined) return undefined;
    const table = this.layout(def);
    const key = primaryKeyBytes(table, id);
    // Checked now: it replaces what `getCached` may have served of the row.
    const row = `${def.name} ${id}`;
    if (copy.text === null) {
      this.copied?.delete(row);
      this.pipeline.check(table.checkAbsent, [key]);
    } else {
      (this.copied ??= new Map()).set(row, { text: copy.text, statement: this.pipeline.check(table.check, [key, copy.text]) });
    }
    this.copies.checked.push([def.name, id]);
    return copy;
  }

  /**
   * The copy of a row this process holds, if any and not of its absence; else a read in the transaction, kept as a
   * read-only transaction's read is (so the next call takes the copy): a row written once is read once per process.
   */
  async getCached<R>(def: TableDef<R>, id: string) {
    const cache = keepsCopies(def as TableDef<unknown>) ? this.rows?.cache : undefined;
    // The reads before a transaction (`before`) have no row cache: they read.
    if (cache === undefined) return this.get(def, id);
    // Its own write: read in the transaction, and not kept (not committed).
    if (this.wrote(def.name, id)) return this.read(def, id, false);
    const copy = cache.copy(def.name, id);
    if (copy === undefined || copy.text === null) return this.read(def, id, true);
    this.layout(def as TableDef<unknown>);
    // Written later in this transaction, the row is checked then against this copy (`put`, `delete`).
    if (!this.readOnly && !this.first) {
      const key = `${def.name} ${id}`;
      if (!this.copied?.has(key)) (this.copied ??= new Map()).set(key, { text: copy.text });
    }
    return copy.row as R;
  }

  /** A row read on the database; `keep`: what it finds is kept as a copy (a read-only transaction's reads, `getCached`'s). */
  private async read<R>(def: TableDef<R>, id: string, keep: boolean) {
    const table = this.layout(def as TableDef<unknown>);
    const cache = keep && keepsCopies(def as TableDef<unknown>) ? this.rows?.cache : undefined;
    const read = cache?.reading(def.name, id, this.since);
    // What the read found, to keep: nothing (undefined) if it fails.
    let found: R | typeof ABSENT | undefined;
    let text: string | null = null;
    try {
      const rows = await this.run<{ data: string }>(`SELECT data FROM ${table.sql} WHERE id = $1::bytea`, [primaryKeyBytes(table, id)]);
      if (rows.length > 0) {
        text = rows[0]!.data;
        found = decodeRow<R>(text);
      } else {
        found = ABSENT;
      }
    } finally {
      if (read !== undefined) cache!.done(read, found, text);
    }
    return found === ABSENT ? undefined : found;
  }

  async getMany<R>(def: TableDef<R>, ids: readonly string[]) {
    const table = this.layout(def as TableDef<unknown>);
    if (ids.length === 0) return [];
    // Each row as `get` takes it: a copy checked in the transaction where there is one, else read (all in one statement).
    const copies = ids.map((id) => this.checkedCopy(def as TableDef<unknown>, id));
    const unread = ids.filter((_, i) => copies[i] === undefined);
    const found = unread.length === 0 ? undefined : await this.readMany(table, unread);
    return ids.map((id, i) => {
      const copy = copies[i];
      if (copy === undefined) return found!.get(id) as R | undefined;
      return copy.row === ABSENT ? undefined : copy.row as R;
    });
  }

  /** Rows by id, read on the database; a cached table's are kept, as `read` keeps them. */
  private async readMany(table: TableLayout, ids: readonly string[]): Promise<Map<string, unknown>> {
    const cache = keepsCopies(table.def) ? this.rows?.cache : undefined;
    const reads = cache === undefined ? undefined : ids.map((id) => cache.reading(table.def.name, id, this.since));
    const keys = ids.map((id) => primaryKeyBytes(table, id));
    // The keys as a list of values, which the planner serves from the primary key's index: a join with the rows of an
    // unnested text could scan the whole table, which takes a lock on all of it for serializable checks (and ran
    // BuyItem's reads at ~0.7 of the rate in a replay). Statements of at most ID_LIST ids, asked for together: one message.
    const chunks: Promise<{ h: string; data: string }[]>[] = [];
    for (let at = 0; at < keys.length; at += ID_LIST) {
      const chunk = keys.slice(at, at + ID_LIST);
      chunks.push(this.run(`SELECT encode(id, 'hex') AS h, data FROM ${table.sql} WHERE id IN (${idParams(chunk.length)})`, chunk));
    }
    const byHex = new Map<string, string>();
    try {
      for (const rows of await Promise.all(chunks)) for (const row of rows) byHex.set(row.h, row.data);
    } catch (error) {
      for (const read of reads ?? []) cache!.done(read, undefined);
      throw error;
    }
    const found = new Map<string, unknown>();
    ids.forEach((id, i) => {
      const text = byHex.get(hex(keys[i]!)) ?? null;
      const row = text === null ? undefined : decodeRow(text);
      found.set(id, row);
      if (reads !== undefined) cache!.done(reads[i]!, text === null ? ABSENT : row, text);
    });
    return found;
  }

  async put<R>(def: TableDef<R>, row: R) {
    const table = this.writable(def as TableDef<unknown>, "put into");
    const id = def.primaryKey(row);
    if (typeof id !== "string") throw new TypeError(`table ${def.name}: the primary key must be a string`);
    const keys = table.indexes.map((index) => encodedKeyOf(def.name, index, row));
    const data = encodeRow(row);
    const params = [encodeKey([id]), data, ...keys.map((key) => key?.bytes ?? null)];
    const write = this.writing(def as TableDef<unknown>, id, row, data);
    const copied = this.takeCopied(def.name, id);
    // A put that cannot clash on a unique key (none held, or each looked up and found free) and moves no counted
    // index answers nothing: it goes with the next statement or COMMIT. A key found free is free for one put only.
    const mayClash = table.indexes.some((index, i) => index.unique && keys[i] !== null && !this.absent?.delete(absentKey(table, index, keys[i]!.bytes)));
    if (table.counted.length === 0 && !mayClash) {
      // A copy to check: the check and this write go as one statement (nothing between them reads the row: the
      // database's work halved), in the check's place while it was not sent yet (nothing asked for since waited for
      // an answer), or now for a copy `getCached` served.
      if (copied !== undefined) {
        const checked = [params[0], copied.text, ...params.slice(1)];
        if (copied.statement === undefined) return void this.pipeline.check(table.checkedUpdate, checked);
        if (this.pipeline.amend(copied.statement, table.checkedUpdate, checked)) return;
      }
      return this.pipeline.defer(table.putUnchecked, params);
    }
    if (copied !== undefined && copied.statement === undefined) this.pipeline.check(table.check, [params[0], copied.text]);
    const rows = await this.pipeline.run<Reported & { clash: number | null }>(table.put, params);
    const clash = rows[0]?.clash;
    if (clash !== undefined && clash !== null) {
      // Refused: what the row holds once the transaction commits is not this (nor known here).
      if (write !== undefined) write.row = undefined;
      const index = table.indexes[clash]!;
      throw new UniqueViolation(def.name, index.name, keys[clash]!.key);
    }
    await this.resize(table, rows[0]);
  }

  async delete<R>(def: TableDef<R>, id: string) {
    const table = this.writable(def as TableDef<unknown>, "delete from");
    // Noted before the statement goes: a `getCached` of the row asked meanwhile must not keep what this deletes.
    this.writing(def as TableDef<unknown>, id, ABSENT, null);
    const copied = this.takeCopied(def.name, id);
    if (copied !== undefined && copied.statement === undefined) this.pipeline.check(table.check, [primaryKeyBytes(table, id), copied.text]);
    const rows = await this.pipeline.run<Reported & { found: number }>(table.delete, [primaryKeyBytes(table, id)]);
    await this.resize(table, rows[0]);
    // Without counted indexes the statement answers a row per deleted row; with them, one row counting them.
    return table.counted.length === 0 ? rows.length > 0 : rows[0]!.found > 0;
  }

  async query<R>(def: TableDef<R>, index: string, query: Query = {}) {
    const table = this.layout(def as TableDef<unknown>);
    const layout = indexOf(table, index);
    const statement = selectSql(table, layout, query, this.sizes);
    if (statement === null) return [];
    const rows = await this.run<{ data: string }>(statement.text, statement.params, false);
    if (rows.length === 0 && layout.unique && query.equals !== undefined && query.range === undefined && query.after === undefined && !query.offset) {
      (this.absent ??= new Set()).add(absentKey(table, layout, encodeKey(query.equals)));
    }
    return rows.map((row) => decodeRow<R>(row.data));
  }

  async count<R>(def: TableDef<R>, index: string, query: CountQuery = {}) {
    const table = this.layout(def as TableDef<unknown>);
    const statement = countSql(table, indexOf(table, index), query, this.sizes);
    if (statement === null) return 0;
    const rows = await this.run<{ n: number }>(statement.text, statement.params, false);
    return Math.min(rows[0]!.n, statement.cap ?? Infinity);
  }

  private layout(def: TableDef<unknown>): TableLayout {
    if (!this.open) throw new Error("transaction already finished: use the tx only inside its transact callback");
    const found = this.layoutOf(def);
    if (found) return found;
    const error = new UnknownTable(def);
    this.pipeline.fail(error);
    throw error;
  }

  /**
   * Records a write of `row` (stored as `text`; `ABSENT`: a delete) to a cached table: once the transaction commits,
   * the copy here is what it wrote, and other processes are told (row-notices.ts). The last write of a row counts.
   */
  private writing(def: TableDef<unknown>, id: string, row: unknown, text: string | null): WrittenRow | undefined {
    const cache = keepsCopies(def) ? this.rows?.cache : undefined;
    if (cache === undefined) return undefined;
    for (const written of this.copies.written) {
      if (written.table === def.name && written.id === id) return Object.assign(written, { row, text });
    }
    const written: WrittenRow = { table: def.name, id, write: cache.writing(def.name, id), row, text };
    this.copies.written.push(written);
    return written;
  }

  /** The copy of a row its write must check (once): one `getCached` served is now among the copies checked. */
  private takeCopied(table: string, id: string): { text: string; statement?: Statement } | undefined {
    const key = `${table} ${id}`;
    const copied = this.copied?.get(key);
    if (copied === undefined) return undefined;
    this.copied!.delete(key);
    if (copied.statement === undefined) this.copies.checked.push([table, id]);
    return copied;
  }

  /** Whether this transaction wrote a row of a cached table (a few rows at most: a scan). */
  private wrote(table: string, id: string): boolean {
    for (const written of this.copies.written) if (written.table === table && written.id === id) return true;
    return false;
  }

  /** The table of a write: refused in a read-only transaction before anything reaches the database. */
  private writable(def: TableDef<unknown>, verb: string): TableLayout {
    const table = this.layout(def);
    if (this.readOnly) throw new TypeError(`cannot ${verb} ${def.name} in a read-only transaction`);
    return table;
  }

  /** Splits and merges the buckets a write reported (rare: once per bucketRows writes into one bucket at most). */
  private async resize(table: TableLayout, reported: Reported | undefined): Promise<void> {
    if (reported === undefined) return;
    for (const [j, index] of table.counted.entries()) {
      const split = reported[`split${j}`], merge = reported[`merge${j}`];
      if (typeof split === "string") await this.pipeline.run(splitSql(index, this.sizes), bucketBounds(split), false);
      if (typeof merge === "string") await this.pipeline.run(mergeSql(index, this.sizes), bucketBounds(merge), false);
    }
  }
}

/**
 * Whether this process keeps copies of the table's rows: served as they are for `cachedReads` (read-only gets,
 * `getCached`), and checked in the transaction for a writing transaction's gets (`checkedCopies` too).
 */
function keepsCopies(def: TableDef<unknown>): boolean {
  return def.cachedReads === true || def.checkedCopies === true;
}

/** A unique key of `index` in the set of keys found free. */
/** Ids per statement of a getMany: far below the 65,535 parameters a bound statement may have. */
const ID_LIST = 1_000;
const idLists: string[] = [];
/** `$1::bytea, …, $n::bytea`, made once per length. */
function idParams(n: number): string {
  return idLists[n] ??= Array.from({ length: n }, (_, i) => `$${i + 1}::bytea`).join(", ");
}

const absentKey = (table: TableLayout, index: IndexLayout, key: Uint8Array) => `${table.sql} ${index.column} ${hex(key)}`;

function indexOf(table: TableLayout, index: string): IndexLayout {
  const found = table.byName.get(index);
  if (!found) throw new Error(`no index ${table.def.name}.${index}`);
  return found;
}

/** What a write statement reports of the buckets of its counted indexes: `split<j>` and `merge<j>`, "bk,bid" in hex or null. */
type Reported = Record<string, unknown>;

/** Rows written per INSERT by `load`. */
const LOAD_BATCH = 5_000;

/** `load`: every row in multi-row upserts, then the counts of counted indexes recounted, in one database transaction. */
async function loadTables(
  session: SqlSession, schema: string, sizes: BucketSizes,
  tableOf: (def: TableDef<unknown>) => TableLayout, fill: (put: BulkPut) => Promise<void>,
): Promise<void> {
  const written = new Map<string, TableLayout>();
  await session.query("BEGIN");
  try {
    await fill(async (def, rows) => {
      const table = tableOf(def as TableDef<unknown>);
      written.set(table.def.name, table);
      await insertRows(session, table, rows);
    });
    const stored = await managedTables(session, schema);
    for (const { name, layout } of stored) if (written.has(name)) await recountTable(session, schema, name, layout, sizes);
    await session.query("COMMIT");
  } catch (error) {
    await session.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
  if (written.size === 0) return;
  // Fresh statistics, so that the next queries are planned for the tables as they now are; and pages marked
  // all-visible, so that counted indexes walk their buckets in the index alone, not row by row in the table.
  const vacuumed = [...written.values()].flatMap((table) => [table.sql, ...table.counted.map((index) => index.counts)]);
  await session.query(`VACUUM (ANALYZE) ${vacuumed.join(", ")}`);
}

/** Rows of one table in multi-row upserts of LOAD_BATCH rows, inside the load's transaction. */
async function insertRows(session: SqlSession, table: TableLayout, rows: readonly unknown[]): Promise<void> {
  const def = table.def;
  const columns = ["id", "data", ...table.indexes.map((index) => index.column)];
  const values = columns.map((column, i) => (column === "data" ? `r.c${i}` : `decode(r.c${i}, 'hex')`));
  const text = `INSERT INTO ${table.sql} (${columns.join(", ")}) SELECT ${values.join(", ")} FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(", ")}) AS r(${columns.map((_, i) => `c${i}`).join(", ")})
    ON CONFLICT (id) DO UPDATE SET ${columns.slice(1).map((column) => `${column} = EXCLUDED.${column}`).join(", ")}`;
  for (let start = 0; start < rows.length; start += LOAD_BATCH) {
    const batch = rows.slice(start, start + LOAD_BATCH);
    const params: (string | null)[][] = columns.map(() => []);
    for (const row of batch) {
      const id = def.primaryKey(row);
      if (typeof id !== "string") throw new TypeError(`table ${def.name}: the primary key must be a string`);
      params[0]!.push(hex(encodeKey([id])));
      params[1]!.push(encodeRow(row));
      table.indexes.forEach((index, i) => {
        const key = encodedKeyOf(def.name, index, row);
        params[i + 2]!.push(key === null ? null : hex(key.bytes));
      });
    }
    await session.query(text, params);
  }
}

function primaryKeyBytes(table: TableLayout, id: string): Uint8Array {
  if (typeof id !== "string") throw new TypeError(`table ${table.def.name}: the primary key must be a string`);
  return encodeKey([id]);
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

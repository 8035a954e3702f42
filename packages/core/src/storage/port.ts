/*
 * The storage port: a small, async, transactional interface (think IndexedDB
 * or DynamoDB tables with declared indexes) so that an SQL database, a
 * key-value store or a distributed engine can sit behind the server. Types
 * and data only: an adapter depends on @playfield/core alone.
 */

/** An index key: a tuple compared element by element (numbers before strings). */
export type IndexKey = readonly (string | number)[];

/** A secondary index of a table. */
export interface IndexDef<Row> {
  /** The row's key in this index, or null to leave the row out of it. */
  key: (row: Row) => IndexKey | null;
  /** At most one row per key: a put that would break it throws `UniqueViolation`. */
  unique?: boolean;
  /**
   * The version of `key` (default 1). Raise it whenever `key` changes what it
   * answers for rows already stored: an adapter that stores keys (the
   * PostgreSQL adapter does) then computes them again for every row.
   */
  version?: number;
  /**
   * Keep counts of this index's key ranges, so that `count` and a large
   * `offset` cost about the same on a board of a million rows as on one of
   * a thousand (leaderboard ranks and pages). A hint: the memory adapter
   * counts in O(log n) anyway; an adapter that counts by walking rows (SQL)
   * keeps the counts in the writing transaction, at a cost per write (see
   * docs/storage.md).
   */
  counted?: boolean;
}

/** A table: its name, its primary key and its indexes. Declared once, in `tables.ts`. */
export interface TableDef<Row = unknown, I extends string = string> {
  name: string;
  primaryKey: (row: Row) => string;
  indexes: Record<I, IndexDef<Row>>;
  /**
   * Read on (nearly) every call and written rarely: an adapter whose reads
   * cost a round trip may answer `get` in a read-only transaction from a
   * copy this process keeps (of the row, or of its absence), dropped when
   * the row is written (here at once, in other processes when they hear of it),
   * and `getCached` in any transaction from a copy of the row. A hint: the memory adapter
   * reads every row at once anyway. docs/storage.md, "Cached rows".
   */
  cachedReads?: boolean;
  /**
   * Read and then written by the same calls, mostly of one process (a
   * player's wallet, a shard leased to a process): an adapter whose reads
   * cost a round trip may answer a writing transaction's `get` from a copy
   * of the row, checked in the same transaction (the transaction runs again
   * if the row changed), so that no read answers anything else than `get`
   * would. (`cachedReads` implies it.) docs/storage.md, "Cached rows".
   */
  checkedCopies?: boolean;
}

/**
 * The name under which every table's primary key is queryable as an index
 * (key `[id]`), with no declaration. Tables may not declare an index of
 * this name.
 */
export const PRIMARY_INDEX = "primary";

/** A typed helper to declare a table. */
export function defineTable<Row>() {
  return <I extends string>(def: TableDef<Row, I>): TableDef<Row, I> => def;
}

/** A range on the index key element right after the `equals` prefix. */
export interface KeyRange {
  gt?: string | number;
  gte?: string | number;
  lt?: string | number;
  lte?: string | number;
}

/**
 * A query on one index. Rows come in index-key order (ties by primary key),
 * reversed with `order: "desc"`.
 */
export interface Query {
  /** The leading elements of the index key that must match exactly. */
  equals?: IndexKey;
  /** Bounds on the next element after `equals`. */
  range?: KeyRange;
  order?: "asc" | "desc";
  /** Rows to skip: the memory adapter does this in O(log n). */
  offset?: number;
  limit?: number;
  /** Continue after this cursor (from `cursorOf`), exclusive; stable under inserts and deletes. */
  after?: Cursor;
}

/** What `count` matches, and a cap on the answer. */
export interface CountQuery extends Pick<Query, "equals" | "range"> {
  /**
   * Count no further than this: the answer is min(matches, cap). An adapter
   * that counts by walking rows (SQL's count(*)) stops there, so "are there
   * at least n" and "how many, up to 1,000" stay cheap on large tables.
   */
  cap?: number;
}

/** A position in an index: the row's full index key and its primary key. */
export interface Cursor {
  key: IndexKey;
  id: string;
}

/** A transaction. Reads see the transaction's own writes. */
export interface Tx {
  get<R>(table: TableDef<R>, id: string): Promise<R | undefined>;
  /**
   * A row by primary key, as `get` answers it, except that on a table
   * declared `cachedReads` or `checkedCopies` it may come from this
   * process's copy of the row instead of the transaction's reads: then it is
   * the row as committed at most the copy's bound ago (writes through this
   * process are seen at once; docs/storage.md, "Cached rows"), and it takes
   * no part in the transaction's serializable reads (a concurrent write of
   * it is no conflict) unless the transaction writes the row: a put or
   * delete of it then checks that the row is still the copy, and the
   * transaction runs again if it is not, so no write is made on a stale
   * copy's word. For rows whose staleness the rule allows when only read: a
   * row written once and never changed, one a check outside the transaction
   * has just read, a count whose rule tolerates other processes' last calls.
   * In a writing transaction, a row the transaction wrote is read in it, and
   * so is a row with no copy or copied as missing: "missing" is always the
   * transaction's own answer, so a row created when missing is created once.
   * (In a read-only transaction it may answer as `get` may there, a copy of
   * the row's absence included.) An adapter that keeps no copies answers as `get`.
   *
   * @example
   * const seen = await tx.getCached(tables.datastorePlayers, id); // no read on the database once copied
   * if (!seen) await tx.put(tables.datastorePlayers, row); // missing: read in the transaction, so created once
   */
  getCached<R>(table: TableDef<R>, id: string): Promise<R | undefined>;
  /**
   * Rows by primary key, in the order of `ids` (undefined where there is no
   * row; an id asked twice is answered twice). One read, where `get` in a
   * loop is one per id: on a database, one round trip instead of n.
   */
  getMany<R>(table: TableDef<R>, ids: readonly string[]): Promise<(R | undefined)[]>;
  /** Inserts or replaces by primary key. Rows are stored as given: do not mutate them afterwards. */
  put<R>(table: TableDef<R>, row: R): Promise<void>;
  /** Deletes by primary key; answers whether the row existed. */
  delete<R>(table: TableDef<R>, id: string): Promise<boolean>;
  /** Rows by a declared index, or by PRIMARY_INDEX (`"primary"`: the primary key). */
  query<R>(table: TableDef<R>, index: string, query?: Query): Promise<R[]>;
  /** How many rows match `equals` and `range`, at most `cap`. O(log n) in the memory adapter; on SQL, O(min(matches, cap)). */
  count<R>(table: TableDef<R>, index: string, query?: CountQuery): Promise<number>;
}

/** How a transaction runs. */
export interface TransactOptions {
  /**
   * The transaction only reads: `put` and `delete` reject (with a
   * `TypeError`), and an adapter may run it more cheaply (PostgreSQL: a
   * READ ONLY transaction, which conflicts with fewer writers).
   */
  readOnly?: boolean;
}

/** The port an adapter implements. */
export interface Storage {
  /**
   * Runs `fn` all-or-nothing and serializable. An adapter may run `fn` again
   * on a conflict, so `fn` has no side effects outside `tx`. If `fn` throws,
   * nothing it wrote is kept and the error is rethrown.
   */
  transact<T>(fn: (tx: Tx) => Promise<T>, options?: TransactOptions): Promise<T>;
  /**
   * Optional (callers use `transactAfterReads`, which falls back to two
   * transactions): `reads` in a read-only transaction of its own, a
   * consistent snapshot taken just before `fn`'s transaction begins, then
   * `fn` in a transaction, handed the reads' answer as a promise so that it
   * may start its own statements first. What `reads` read takes no part in
   * `fn`'s transaction: a concurrent write of it is no conflict (sums over
   * rows that concurrent transactions write, as sharded counters). `reads`
   * asks for all its reads at once. An adapter that runs `fn` again runs
   * `reads` again before it. PostgreSQL sends both transactions' first
   * statements in one message.
   */
  transactAfterReads?<B, T>(reads: (tx: Tx) => Promise<B>, fn: (tx: Tx, read: Promise<B>) => Promise<T>): Promise<T>;
  /**
   * Sets up these tables now (an adapter that creates tables or migrates
   * them does it here, before the first transaction needs them), e.g.
   * `init(allTables)` when a server starts. Tables not named are set up on
   * first use. Calling it again is harmless.
   */
  init(tables: readonly TableDef<never>[]): Promise<void>;
  /** Drops every row (tests reset between cases). */
  clear(): Promise<void>;
  /**
   * Copies every row, to `restore` later: test suites seed once and restore
   * before each case. Optional: an adapter that cannot copy its data leaves
   * both out, and servers answer `unimplemented`.
   */
  snapshot?(): Promise<StorageSnapshot>;
  /** Replaces every row with the snapshot's (the snapshot stays usable: restore it again at will). */
  restore?(snapshot: StorageSnapshot): Promise<void>;
  /** Optional: the adapter's own figures, read when metrics are collected (docs/operators.md, "Metrics"). */
  stats?(): StorageStats;
}

/** What an adapter tells of itself, for metrics. */
export interface StorageStats {
  /** Transactions run again after a conflict (serialization failure, deadlock) since the storage opened. */
  retries: number;
  /** The database connections, where the adapter keeps a pool of them. */
  pool?: {
    /** The most it opens. */
    max: number;
    /** Open now, in use or not. */
    open: number;
    /** Open and unused. */
    idle: number;
    /** Sessions waiting for a connection. */
    waiting: number;
  };
}

/**
 * `storage.transactAfterReads(reads, fn)`, or on an adapter without it
 * `reads` in a read-only transaction, then `fn` in a transaction of its own.
 *
 * @example
 * await transactAfterReads(storage, (tx) => tx.query(Shards, "byCounter", { equals: ["c"] }), async (tx, read) => {
 *   const [mine, shards] = await Promise.all([tx.get(Shards, myShardId), read]); // one round trip on PostgreSQL
 *   …
 * });
 */
export function transactAfterReads<B, T>(storage: Storage, reads: (tx: Tx) => Promise<B>, fn: (tx: Tx, read: Promise<B>) => Promise<T>): Promise<T> {
  if (storage.transactAfterReads) return storage.transactAfterReads(reads, fn);
  return storage.transact(reads, { readOnly: true }).then((read) => storage.transact((tx) => fn(tx, Promise.resolve(read))));
}

/** Every row of a storage at one moment, by table: opaque to callers, readable only by the adapter that took it. */
export interface StorageSnapshot {
  readonly adapter: string;
  readonly data: unknown;
}

/** Thrown by `put` when a unique index already holds the key for another row. */
export class UniqueViolation extends Error {
  override name = "UniqueViolation";
  constructor(readonly table: string, readonly index: string, readonly key: IndexKey) {
    super(`unique index ${table}.${index} already holds ${JSON.stringify(key)}`);
  }
}

/** The cursor of a row in an index, to pass as `after`. */
export function cursorOf<R>(table: TableDef<R>, index: string, row: R): Cursor {
  const id = table.primaryKey(row);
  if (index === PRIMARY_INDEX) return { key: [id], id };
  const def = table.indexes[index];
  if (!def) throw new Error(`no index ${table.name}.${index}`);
  return { key: def.key(row) ?? [], id };
}

/** Compares two index keys element by element; numbers sort before strings. */
export function compareKeys(a: IndexKey, b: IndexKey): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i]!, y = b[i]!;
    if (x === y) continue;
    if (typeof x === typeof y) return x < y ? -1 : 1;
    return typeof x === "number" ? -1 : 1;
  }
  return a.length - b.length;
}

/*
 * Cached rows (docs/storage.md, "Cached rows"): a per-process copy of the
 * rows of tables declared `cachedReads` (the token check's device, user and
 * session member, read on every authenticated call and written rarely), so
 * that a read-only transaction that only gets such rows sends nothing to
 * the database. Every write this process commits to such a row drops its
 * copy; writes of other processes drop it when their notice arrives (a
 * NOTIFY sent once the writing transaction committed: row-notices.ts), and a copy is never
 * kept longer than `ttlMs` (writes made outside Playfield). A row found
 * missing is kept as missing (`ABSENT`) the same way. Bounded in rows
 * and in characters of stored text: datastore entries, cached too, hold up
 * to 4 MB each.
 *
 * A writing transaction may take a copy too (`copy`), checked by a
 * statement in the transaction (sql-storage.ts): so the rows it writes are
 * kept as it committed them (`writing`, `wrote`), which keeps the copies of
 * a process's own writes current.
 */
import type { CountQuery, Query, TableDef, Tx } from "@playfield/core";

/**
 * What a copy holds for a row the database did not have: its absence is
 * kept too (a game session with no record, a key never written), and goes
 * when the row is written, as a copy does.
 */
export const ABSENT: unique symbol = Symbol("absent");

/** A read of one row on the database, started by `RowCache.reading`: what it finds is kept only if its row was not written meanwhile. */
export interface RowRead {
  readonly key: string;
  readonly state: { count: number; dropped: boolean };
  /** A copy was dropped between the reader's start and this read's: what it finds may be older than that write, and is not kept. */
  readonly late: boolean;
}

/** How much a row cache keeps at most; the oldest copies go first. */
export interface RowCacheBounds {
  /** Copies (default 100,000). */
  rows?: number;
  /** Characters of stored text (the row's JSON) over all copies (default 32 Mi). */
  chars?: number;
  /** Characters of stored text of one copy: a longer row is never kept (default 64 Ki). */
  rowChars?: number;
}

/** The copies of one process. */
export class RowCache {
  /** Oldest first (Map keeps insertion order; a copy kept again goes last). */
  private readonly rows = new Map<string, Copy>();
  /** Characters of stored text of every copy. */
  private chars = 0;
  private readonly maxRows: number;
  private readonly maxChars: number;
  private readonly maxRowChars: number;
  /**
   * Reads in flight by row, and whether the row was written while one was:
   * such a read may have found the row as it was before the write, so none
   * of them keeps what it found. Per row, so that the writes of other rows
   * (heartbeats, every few seconds per player) keep nothing from filling.
   */
  private readonly inFlight = new Map<string, { count: number; dropped: boolean }>();
  /** Whether copies may be served: off while notices of other processes cannot arrive. */
  serving: boolean;
  /** Copies dropped so far (`drop`, `dropAll`): a transaction notes it when it starts, for `reading`'s `since`. */
  drops = 0;

  constructor(
    private readonly ttlMs: number,
    serving: boolean,
    bounds: RowCacheBounds = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    this.serving = serving;
    this.maxRows = bounds.rows ?? 100_000;
    this.maxChars = bounds.chars ?? 32 * 1024 * 1024;
    this.maxRowChars = bounds.rowChars ?? 64 * 1024;
  }

  /** Characters of stored text the copies hold now. */
  get size(): number {
    return this.chars;
  }

  /** The copy of a row (`ABSENT` when the row is known not to exist), or undefined when there is none (or it is too old). */
  get(table: string, id: string): unknown {
    return this.copy(table, id)?.row;
  }

  /** The copy of a row with its stored text (null for `ABSENT`), to check in a writing transaction; undefined when there is none. */
  copy(table: string, id: string): Copy | undefined {
    if (!this.serving) return undefined;
    const key = keyOf(table, id);
    const found = this.rows.get(key);
    if (found === undefined) return undefined;
    if (this.now() - found.at > this.ttlMs) {
      this.remove(key);
      return undefined;
    }
    return found;
  }

  /**
   * Starts a read of a row on the database; end it with `done`, whatever happens to the read. `since`: `drops` when
   * the reading transaction started, before its first statement. A transaction reads from a snapshot taken at its
   * first statement, so a read made after that one (a later message) may miss a write committed since: it keeps
   * nothing if any copy was dropped in between (one counter for every row: such reads are the rarer ones).
   */
  reading(table: string, id: string, since = this.drops): RowRead {
    const key = keyOf(table, id);
    let state = this.inFlight.get(key);
    if (state === undefined) this.inFlight.set(key, (state = { count: 0, dropped: false }));
    state.count++;
    return { key, state, late: since !== this.drops };
  }

  /**
   * Ends a read: keeps `row` (`ABSENT`: no such row; undefined: the read failed, keep nothing) with its stored text
   * (null for `ABSENT`), unless the row (or every row) was dropped since it started, or it is longer than one copy may be.
   */
  done(read: RowRead, row: unknown, text: string | null = null): void {
    const { key, state } = read;
    if (--state.count === 0 && this.inFlight.get(key) === state) this.inFlight.delete(key);
    if (row === undefined || state.dropped || read.late) return;
    this.keep(key, row, text);
  }

  /** Starts a write of a row by a transaction; end it with `wrote` once the transaction is over, whatever its outcome. */
  writing(table: string, id: string): RowRead {
    return this.reading(table, id);
  }

  /**
   * Ends a write: the transaction committed `row` (`ABSENT`: deleted; undefined: it did not commit, or what it wrote is
   * not known), with its stored text. Drops the copy and stops the reads in flight from keeping what they found (it may
   * be older); keeps `row` instead unless the row was dropped while the write was in flight (a notice of another
   * process's later write may arrive before this commit's answer).
   */
  wrote(write: RowRead, row: unknown, text: string | null = null): void {
    const clean = !write.state.dropped;
    this.dropKey(write.key);
    this.done(write, undefined);
    if (row !== undefined && clean) this.keep(write.key, row, text);
  }

  private keep(key: string, row: unknown, text: string | null): void {
    const chars = text?.length ?? 0;
    if (!this.serving || chars > this.maxRowChars) return;
    this.remove(key);
    while (this.rows.size > 0 && (this.rows.size >= this.maxRows || this.chars + chars > this.maxChars)) this.remove(this.rows.keys().next().value!);
    this.rows.set(key, { row, text, at: this.now(), chars });
    this.chars += chars;
  }

  /** Drops the copy of a row that was written. */
  drop(table: string, id: string): void {
    this.dropKey(keyOf(table, id));
  }

  private dropKey(key: string): void {
    this.drops++;
    this.remove(key);
    const state = this.inFlight.get(key);
    if (state !== undefined) state.dropped = true;
  }

  /** Drops every copy (a restore, a clear, notices that may have been missed). */
  dropAll(): void {
    this.drops++;
    this.rows.clear();
    this.chars = 0;
    // Every read in flight is in `inFlight`: none keeps what it found.
    for (const state of this.inFlight.values()) state.dropped = true;
  }

  private remove(key: string): void {
    const found = this.rows.get(key);
    if (found === undefined) return;
    this.rows.delete(key);
    this.chars -= found.chars;
  }
}

/** A copy: the row (or `ABSENT`), its stored text (null for `ABSENT`), when it was kept, and its characters. */
export interface Copy {
  readonly row: unknown;
  readonly text: string | null;
  readonly at: number;
  readonly chars: number;
}

// A table name never holds a space; an id may hold anything, so the first space ends the table.
const SEPARATOR = " ";
const keyOf = (table: string, id: string) => `${table}${SEPARATOR}${id}`;

/** Thrown by `CachedReadTx` at the first read it cannot serve from copies. */
export class NotCached extends Error {
  override name = "NotCached";
  constructor() {
    super("a read the row cache cannot serve: the transaction runs on the database");
  }
}

/** One for every miss: every read-only transaction that reads another table meets one, and an Error's stack costs. */
const NOT_CACHED = new NotCached();

/**
 * A read-only transaction served from copies only: the first read it cannot
 * serve sets `missed` and throws, and the transaction then runs on the
 * database (the port lets an adapter run a function again). `missed` is what
 * counts, since the function may have caught the throw.
 */
export class CachedReadTx implements Tx {
  missed = false;

  constructor(private readonly cache: RowCache) {}

  async get<R>(table: TableDef<R>, id: string): Promise<R | undefined> {
    const row = table.cachedReads === true ? this.cache.get(table.name, id) : undefined;
    if (row === undefined) return this.miss();
    return row === ABSENT ? undefined : (row as R);
  }

  /** As `get`: a read-only transaction may take a copy of a row's absence too. */
  getCached<R>(table: TableDef<R>, id: string): Promise<R | undefined> {
    return this.get(table, id);
  }

  async getMany<R>(table: TableDef<R>, ids: readonly string[]): Promise<(R | undefined)[]> {
    const rows: (R | undefined)[] = [];
    for (const id of ids) rows.push(await this.get(table, id));
    return rows;
  }

  put<R>(table: TableDef<R>, _row: R): Promise<void> {
    return Promise.reject(new TypeError(`cannot put into ${table.name} in a read-only transaction`));
  }

  delete<R>(table: TableDef<R>, _id: string): Promise<boolean> {
    return Promise.reject(new TypeError(`cannot delete from ${table.name} in a read-only transaction`));
  }

  query<R>(_table: TableDef<R>, _index: string, _query?: Query): Promise<R[]> {
    return this.miss();
  }

  count<R>(_table: TableDef<R>, _index: string, _query?: CountQuery): Promise<number> {
    return this.miss();
  }

  private miss(): Promise<never> {
    this.missed = true;
    return Promise.reject(NOT_CACHED);
  }
}

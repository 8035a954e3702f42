/*
 * The in-memory storage adapter: the server's default and what test suites
 * run. Transactions run one at a time, in call order, so each is trivially
 * serializable. A transaction writes straight into the tables (its reads,
 * queries and counts see its writes with no merging) and keeps an undo log;
 * if its function throws, the log writes back each row's previous version
 * (through the same `write` as a put) before the error is rethrown, and no
 * other transaction ever saw the partial state.
 *
 * Every authenticated call runs two or three transactions, so a
 * transaction costs as few objects as it can: one Tx, an undo log only once
 * it writes, and no promise besides its own unless it has to wait its turn.
 */
import { PRIMARY_INDEX, type CountQuery, type Query, type Storage, type StorageSnapshot, type TableDef, type Tx } from "@playfield/core";
import { createTableStore, type RowVersion, type TableStore } from "./table-store.js";

/**
 * Creates an empty in-memory storage. Tables are known by name and set up on
 * first use; every index (and the primary key, as the index `"primary"`) is
 * an order-statistic tree, so gets, puts, counts, offsets and pages cost
 * O(log n).
 *
 * @example
 * const storage = createMemoryStorage();
 * await storage.transact(async (tx) => tx.put(Scores, { id: "u1", board: "b", score: 10 }));
 * const top = await storage.transact((tx) => tx.query(Scores, "byScore", { equals: ["b"], order: "desc", limit: 10 }));
 */
export function createMemoryStorage(): Storage {
  const stores = new Map<string, TableStore>();
  // Whether a transaction (or a clear, snapshot or restore) runs. Those asked for meanwhile wait
  // here in call order; each starts when the one before it settles. With none running, the next
  // starts at once rather than a turn later.
  let busy = false;
  const waiting: (() => void)[] = [];
  /** Hands the turn to the next waiting, as the one running settles. */
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy = false;
  };

  function storeOf<R>(table: TableDef<R>): TableStore<R> {
    let store = stores.get(table.name);
    if (!store) {
      store = createTableStore(table as TableDef<unknown>);
      stores.set(table.name, store);
    }
    return store as TableStore<R>;
  }

  /** Waits for the turn: resolves once every earlier transaction settled and it runs. */
  function turn(): Promise<void> {
    return new Promise((resolve) => waiting.push(resolve));
  }

  // `release` goes in the finally of the one async function that runs the work, so that an
  // uncontended transaction makes no promise of the queue's.
  async function runTransaction<T>(fn: (tx: Tx) => Promise<T>, readOnly: boolean): Promise<T> {
    const tx = new MemoryTx(storeOf, readOnly);
    try {
      return await fn(tx);
    } catch (error) {
      tx.undo();
      throw error;
    } finally {
      tx.open = false;
      release();
    }
  }

  // The reads and `fn` in one turn: the reads' snapshot is taken just before `fn`'s transaction, as the
  // port asks, with no second turn of the queue (nor a second count in a wrapper) in between.
  async function runAfterReads<B, T>(reads: (tx: Tx) => Promise<B>, fn: (tx: Tx, read: Promise<B>) => Promise<T>): Promise<T> {
    let tx: MemoryTx | null = null;
    try {
      const readTx = new MemoryTx(storeOf, true);
      let read: B;
      try {
        read = await reads(readTx);
      } finally {
        readTx.open = false;
      }
      tx = new MemoryTx(storeOf, false);
      return await fn(tx, Promise.resolve(read));
    } catch (error) {
      tx?.undo();
      throw error;
    } finally {
      if (tx) tx.open = false;
      release();
    }
  }

  async function exclusively<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } finally {
      release();
    }
  }

  function enqueue<T>(run: () => Promise<T>): Promise<T> {
    if (!busy) {
      busy = true;
      return exclusively(run);
    }
    return turn().then(() => exclusively(run));
  }

  return {
    transact: (fn, options) => {
      const readOnly = options?.readOnly === true;
      if (!busy) {
        busy = true;
        return runTransaction(fn, readOnly);
      }
      return turn().then(() => runTransaction(fn, readOnly));
    },
    transactAfterReads: (reads, fn) => {
      if (!busy) {
        busy = true;
        return runAfterReads(reads, fn);
      }
      return turn().then(() => runAfterReads(reads, fn));
    },
    // Stores are made on first use anyway; made here, a table's indexes are checked up front.
    init: async (tables) => {
      for (const table of tables) storeOf(table as TableDef<unknown>);
    },
    clear: () => enqueue(async () => {
      for (const store of stores.values()) store.clear();
    }),
    // Rows are copied both ways, so neither later writes nor a restored
    // world's writes reach the snapshot: it can be restored any number of times.
    snapshot: () => enqueue(async () => {
      const tables: TableCopy[] = [];
      for (const store of stores.values()) tables.push({ def: store.def, rows: structuredClone(store.query(PRIMARY_INDEX, {})) });
      return { adapter: ADAPTER, data: tables };
    }),
    // Built aside and swapped in whole: a snapshot that does not load (a
    // row breaking a unique index, a table that is not a table) changes nothing.
    restore: (snapshot) => enqueue(async () => {
      const restored = new Map<string, TableStore>();
      for (const { def, rows } of tablesOf(snapshot)) {
        const store = createTableStore(def);
        for (const row of structuredClone(rows)) {
          const version = store.prepare(row);
          store.write(version.id, version);
        }
        restored.set(def.name, store);
      }
      stores.clear();
      for (const [name, store] of restored) stores.set(name, store);
    }),
  };
}

/**
 * One transaction: reads and writes go straight to the tables, each write
 * logged for undo. A class, so that a transaction (two on every
 * authenticated call) allocates one object and builds no closures.
 */
class MemoryTx implements Tx {
  open = true;
  // What each write replaced, four entries a write (store, id, previous row, its keys): made on the first write.
  private log: unknown[] | null = null;
  constructor(private readonly storeOf: <R>(table: TableDef<R>) => TableStore<R>, private readonly readOnly: boolean) {}

  private live(): void {
    if (!this.open) throw new Error("transaction already finished: use the tx only inside its transact callback");
  }

  private writable(verb: string, table: TableDef<unknown>): void {
    this.live();
    if (this.readOnly) throw new TypeError(`cannot ${verb} ${table.name} in a read-only transaction`);
  }

  // Not async: each answers one promise of its own (an async method makes a second object for its frame),
  // and what it throws becomes that promise's rejection.
  get<R>(table: TableDef<R>, id: string): Promise<R | undefined> {
    try {
      this.live();
      return Promise.resolve(this.storeOf(table).get(id));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** The row as `get` reads it: this adapter's reads cost nothing, and every row is current. */
  getCached<R>(table: TableDef<R>, id: string): Promise<R | undefined> {
    return this.get(table, id);
  }

  getMany<R>(table: TableDef<R>, ids: readonly string[]): Promise<(R | undefined)[]> {
    try {
      this.live();
      const store = this.storeOf(table);
      const rows = new Array<R | undefined>(ids.length);
      for (let i = 0; i < ids.length; i++) rows[i] = store.get(ids[i]!);
      return Promise.resolve(rows);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  put<R>(table: TableDef<R>, row: R): Promise<void> {
    try {
      this.writable("put into", table as TableDef<unknown>);
      const store = this.storeOf(table);
      const version = store.prepare(row);
      const log = (this.log ??= []);
      log.push(store);
      store.write(version.id, version, log);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  delete<R>(table: TableDef<R>, id: string): Promise<boolean> {
    try {
      this.writable("delete from", table as TableDef<unknown>);
      const store = this.storeOf(table);
      const log = (this.log ??= []);
      log.push(store);
      if (store.write(id, undefined, log)) return Promise.resolve(true);
      // Nothing was there: nothing to write back.
      log.length -= 4;
      return Promise.resolve(false);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  query<R>(table: TableDef<R>, index: string, query: Query = {}): Promise<R[]> {
    try {
      this.live();
      return Promise.resolve(this.storeOf(table).query(index, query));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  count<R>(table: TableDef<R>, index: string, query: CountQuery = {}): Promise<number> {
    try {
      this.live();
      const cap = checkCap(query.cap);
      const n = this.storeOf(table).count(index, query);
      return Promise.resolve(cap === undefined ? n : Math.min(n, cap));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Writes back each row's previous version, newest first. */
  undo(): void {
    const log = this.log;
    if (log === null) return;
    for (let i = log.length - 4; i >= 0; i -= 4) {
      const id = log[i + 1] as string;
      const keys = log[i + 3] as RowVersion["keys"] | undefined;
      (log[i] as TableStore).write(id, keys === undefined ? undefined : { id, row: log[i + 2], keys });
    }
  }
}

const ADAPTER = "playfield-memory";

/** One table's rows in a snapshot, with its definition (tables are set up on first use). */
interface TableCopy {
  def: TableDef<unknown>;
  rows: unknown[];
}

function tablesOf(snapshot: StorageSnapshot): TableCopy[] {
  if (snapshot.adapter !== ADAPTER || !Array.isArray(snapshot.data)) {
    throw new TypeError(`a snapshot of ${JSON.stringify(snapshot.adapter)} storage cannot be restored into the memory storage`);
  }
  return snapshot.data as TableCopy[];
}

function checkCap(cap: number | undefined): number | undefined {
  if (cap !== undefined && (!Number.isInteger(cap) || cap < 0)) throw new RangeError(`count cap must be a whole number ≥ 0, got ${cap}`);
  return cap;
}

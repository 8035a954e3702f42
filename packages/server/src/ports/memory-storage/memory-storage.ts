/*
 * The in-memory storage adapter: the server's default and what test suites
 * run. Transactions run one at a time, in call order, so each is trivially
 * serializable. A transaction writes straight into the tables (its reads,
 * queries and counts see its writes with no merging) and keeps an undo log;
 * if its function throws, the log writes back each row's previous version
 * (through the same `write` as a put) before the error is rethrown, and no
 * other transaction ever saw the partial state.
 */
import { PRIMARY_INDEX, type CountQuery, type Query, type Storage, type StorageSnapshot, type TableDef, type TransactOptions, type Tx } from "@playfield/core";
import { createTableStore, type RowVersion, type TableStore } from "./table-store.js";

/** What one write replaced, to undo it. */
interface UndoRecord {
  store: TableStore;
  id: string;
  previous: RowVersion | undefined;
}

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
  // The tail of the queue of transactions: each starts when the one before it settles.
  let tail: Promise<unknown> = Promise.resolve();
  // Transactions queued or running: with none, the next starts at once rather than a turn later.
  let queued = 0;
  const dequeue = () => {
    queued -= 1;
  };

  function storeOf<R>(table: TableDef<R>): TableStore<R> {
    let store = stores.get(table.name);
    if (!store) {
      store = createTableStore(table as TableDef<unknown>);
      stores.set(table.name, store);
    }
    return store as TableStore<R>;
  }

  function enqueue<T>(run: () => Promise<T>): Promise<T> {
    const result = queued === 0 ? run() : tail.then(run);
    queued += 1;
    tail = result.then(dequeue, dequeue);
    return result;
  }

  async function runTransaction<T>(fn: (tx: Tx) => Promise<T>, options: TransactOptions = {}): Promise<T> {
    const tx = new MemoryTx(storeOf, options.readOnly === true);
    try {
      return await fn(tx);
    } catch (error) {
      tx.undo();
      throw error;
    } finally {
      tx.open = false;
    }
  }

  return {
    transact: (fn, options) => enqueue(() => runTransaction(fn, options)),
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
          const { id, version } = store.prepare(row);
          store.write(id, version);
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
  private readonly log: UndoRecord[] = [];
  constructor(private readonly storeOf: <R>(table: TableDef<R>) => TableStore<R>, private readonly readOnly: boolean) {}

  private live(): void {
    if (!this.open) throw new Error("transaction already finished: use the tx only inside its transact callback");
  }

  private writable(verb: string, table: TableDef<unknown>): void {
    this.live();
    if (this.readOnly) throw new TypeError(`cannot ${verb} ${table.name} in a read-only transaction`);
  }

  async get<R>(table: TableDef<R>, id: string) {
    this.live();
    return this.storeOf(table).get(id);
  }

  async getMany<R>(table: TableDef<R>, ids: readonly string[]) {
    this.live();
    const store = this.storeOf(table);
    return ids.map((id) => store.get(id));
  }

  async put<R>(table: TableDef<R>, row: R) {
    this.writable("put into", table as TableDef<unknown>);
    const store = this.storeOf(table);
    const { id, version } = store.prepare(row);
    this.log.push({ store: store as TableStore, id, previous: store.write(id, version) as RowVersion | undefined });
  }

  async delete<R>(table: TableDef<R>, id: string) {
    this.writable("delete from", table as TableDef<unknown>);
    const store = this.storeOf(table);
    const previous = store.write(id, undefined) as RowVersion | undefined;
    if (previous === undefined) return false;
    this.log.push({ store: store as TableStore, id, previous });
    return true;
  }

  async query<R>(table: TableDef<R>, index: string, query: Query = {}) {
    this.live();
    return this.storeOf(table).query(index, query);
  }

  async count<R>(table: TableDef<R>, index: string, query: CountQuery = {}) {
    this.live();
    const cap = checkCap(query.cap);
    const n = this.storeOf(table).count(index, query);
    return cap === undefined ? n : Math.min(n, cap);
  }

  /** Writes back each row's previous version, newest first. */
  undo(): void {
    for (let i = this.log.length - 1; i >= 0; i--) {
      const { store, id, previous } = this.log[i]!;
      store.write(id, previous);
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

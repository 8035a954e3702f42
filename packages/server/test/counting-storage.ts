import type { Storage, Tx } from "@playfield/core";

/*
 * A storage decorator that counts the reads of each transaction: every
 * `get`, `query`, `count` and non-empty `getMany` is one round trip on a
 * database. Suites assert that a method's reads do not grow with the rows it
 * answers about (no read in a loop).
 */

export interface CountingStorage extends Storage {
  /** The reads of each transaction since the last `reset`, in the order they began. */
  readonly reads: number[];
  reset(): void;
}

export function countingStorage(inner: Storage): CountingStorage {
  const reads: number[] = [];
  const counted = (tx: Tx, at: number): Tx => {
    const read = () => { reads[at]!++; };
    return {
      get: (table, id) => (read(), tx.get(table, id)),
      // A read when the adapter holds no copy: counted as one, as the reads it may spare are the point.
      getCached: (table, id) => (read(), tx.getCached(table, id)),
      getMany: (table, ids) => (ids.length > 0 && read(), tx.getMany(table, ids)),
      query: (table, index, query) => (read(), tx.query(table, index, query)),
      count: (table, index, query) => (read(), tx.count(table, index, query)),
      put: (table, row) => tx.put(table, row),
      delete: (table, id) => tx.delete(table, id),
    };
  };
  return {
    reads,
    reset: () => { reads.length = 0; },
    transact: (fn, options) => inner.transact((tx) => {
      // A transaction run again (a conflict) counts again, as it costs again.
      const at = reads.push(0) - 1;
      return fn(counted(tx, at));
    }, options),
    init: (tables) => inner.init(tables),
    clear: () => inner.clear(),
    ...(inner.snapshot ? { snapshot: () => inner.snapshot!() } : {}),
    ...(inner.restore ? { restore: (snapshot) => inner.restore!(snapshot) } : {}),
  };
}

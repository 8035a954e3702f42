import type { Storage, TableDef, Tx } from "@playfield/core";

/*
 * A storage decorator that notes the tables each transaction writes (a put
 * or a delete), committed or not: a suite then compares and puts back those
 * tables alone, where a whole snapshot and restore would touch every table
 * (each a round trip or more on a database). A failed transaction is noted
 * too, so that a write an adapter kept by mistake is still looked at.
 */

export interface RecordingStorage extends Storage {
  /** The tables written since the last call, by name; forgets them. */
  takeWritten(): Map<string, TableDef<unknown>>;
}

export function recordingStorage(inner: Storage): RecordingStorage {
  let written = new Map<string, TableDef<unknown>>();
  const note = (table: TableDef<never>) => { written.set(table.name, table as TableDef<unknown>); };
  const recorded = (tx: Tx): Tx => ({
    get: (table, id) => tx.get(table, id),
    getCached: (table, id) => tx.getCached(table, id),
    getMany: (table, ids) => tx.getMany(table, ids),
    query: (table, index, query) => tx.query(table, index, query),
    count: (table, index, query) => tx.count(table, index, query),
    put: (table, row) => (note(table as TableDef<never>), tx.put(table, row)),
    delete: (table, id) => (note(table as TableDef<never>), tx.delete(table, id)),
  });
  return {
    takeWritten() {
      const taken = written;
      written = new Map();
      return taken;
    },
    transact: (fn, options) => inner.transact((tx) => fn(recorded(tx)), options),
    init: (tables) => inner.init(tables),
    clear: () => inner.clear(),
    ...(inner.snapshot ? { snapshot: () => inner.snapshot!() } : {}),
    ...(inner.restore ? { restore: (snapshot) => inner.restore!(snapshot) } : {}),
  };
}

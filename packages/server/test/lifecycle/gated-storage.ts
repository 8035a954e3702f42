import type { Storage } from "@playfield/core";
import { createMemoryStorage } from "../../src/index.js";

/** A memory storage whose transactions can be made to fail, or held until released: a database going away, or a slow one. */
export function gatedStorage() {
  const storage = createMemoryStorage();
  let failing = false;
  let held: Promise<void> | null = null;
  let waiting = 0;
  let writesWaiting = 0;
  let release = () => {};
  const gated: Storage = {
    ...storage,
    async transact(fn, options) {
      if (failing) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
      if (held) {
        const write = options?.readOnly !== true;
        waiting += 1;
        if (write) writesWaiting += 1;
        await held;
        waiting -= 1;
        if (write) writesWaiting -= 1;
      }
      return storage.transact(fn, options);
    },
  };
  return {
    storage: gated,
    /** Every transaction from now on rejects, as when the database is gone. */
    fail(on: boolean) { failing = on; },
    /** Transactions from now on wait until `release`. */
    hold() { held = new Promise((resolve) => { release = () => { held = null; resolve(); }; }); },
    release: () => release(),
    /** How many transactions wait for `release`. */
    get waiting() { return waiting; },
    /** How many of them would write (a call's transaction, not a realtime recheck's read). */
    get writesWaiting() { return writesWaiting; },
  };
}

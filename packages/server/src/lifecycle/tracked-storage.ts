import type { Storage } from "@playfield/core";

/** A storage that counts the transactions running through it, so a shutdown can wait for them. */
export interface TrackedStorage {
  storage: Storage;
  /** Resolves once no transaction runs (at once when none does). */
  idle(): Promise<void>;
}

/**
 * Wraps `storage` so that its transactions are counted. Everything else
 * passes through; the wrapper costs a counter per transaction.
 */
export function trackTransactions(storage: Storage): TrackedStorage {
  let running = 0;
  let waiters: (() => void)[] = [];
  const settle = () => {
    if (running > 0) return;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const tracked: Storage = {
    async transact(fn, options) {
      running += 1;
      try {
        return await storage.transact(fn, options);
      } finally {
        running -= 1;
        settle();
      }
    },
    init: (tables) => storage.init(tables),
    clear: () => storage.clear(),
    ...(storage.snapshot && { snapshot: () => storage.snapshot!() }),
    ...(storage.restore && { restore: (snapshot) => storage.restore!(snapshot) }),
  };
  return {
    storage: tracked,
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}

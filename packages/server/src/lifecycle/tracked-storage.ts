import type { Storage, TransactOptions, Tx } from "@playfield/core";

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
  // Counted down on the transaction's own promise: an async wrapper would add turns to every call.
  const done = <T>(value: T) => {
    running -= 1;
    settle();
    return value;
  };
  const failed = (error: unknown) => {
    running -= 1;
    settle();
    throw error;
  };
  const counted = <T>(start: () => Promise<T>): Promise<T> => {
    running += 1;
    let result: Promise<T>;
    try {
      result = start();
    } catch (error) {
      // A storage that throws rather than rejects is counted down all the same.
      result = Promise.reject(error);
    }
    return result.then(done, failed);
  };
  const tracked: Storage = {
    transact: <T>(fn: (tx: Tx) => Promise<T>, options?: TransactOptions): Promise<T> => counted(() => storage.transact(fn, options)),
    ...(storage.transactAfterReads && {
      transactAfterReads: <B, T>(reads: (tx: Tx) => Promise<B>, fn: (tx: Tx, read: Promise<B>) => Promise<T>): Promise<T> =>
        counted(() => storage.transactAfterReads!(reads, fn)),
    }),
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

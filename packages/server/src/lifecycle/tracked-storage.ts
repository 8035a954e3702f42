import type { Storage, TransactOptions, Tx } from "@playfield/core";
import type { ServerMetrics } from "../observe/server-metrics.js";

/** A storage that counts the transactions running through it, so a shutdown can wait for them. */
export interface TrackedStorage {
  storage: Storage;
  /** Resolves once no transaction runs (at once when none does). */
  idle(): Promise<void>;
}

/**
 * Wraps `storage` so that its transactions are counted. Everything else
 * passes through; the wrapper costs a counter per transaction. With
 * `metrics`, each transaction's time and outcome are reported too.
 */
export function trackTransactions(storage: Storage, metrics?: ServerMetrics): TrackedStorage {
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
    const started = metrics === undefined ? 0 : performance.now();
    let result: Promise<T>;
    try {
      result = start();
    } catch (error) {
      // A storage that throws rather than rejects is counted down all the same.
      result = Promise.reject(error);
    }
    return metrics === undefined ? result.then(done, failed) : measured(result, metrics, started);
  };
  const measured = <T>(result: Promise<T>, to: ServerMetrics, started: number): Promise<T> =>
    result.then((value) => {
      to.transaction((performance.now() - started) / 1000, true);
      return done(value);
    }, (error: unknown) => {
      to.transaction((performance.now() - started) / 1000, false);
      return failed(error);
    });
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
    ...(storage.stats && { stats: () => storage.stats!() }),
  };
  return {
    storage: tracked,
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}

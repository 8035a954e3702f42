import type { Storage } from "@playfield/core";
import { createReadinessProbe, storageCheck, type ReadinessCheck, type ReadinessReport } from "./readiness.js";
import type { ServerMetrics } from "../observe/server-metrics.js";
import { trackTransactions } from "./tracked-storage.js";

/** A server's readiness and shutdown state, shared by `/readyz` and the adapter that drains it. */
export interface ServerLifecycle {
  /** Whether the server is shutting down (`drain` was called). */
  readonly draining: boolean;
  /** Marks the server as shutting down: `/readyz` answers 503 from now on. Requests are still served. */
  drain(): void;
  /** What `/readyz` answers: the storage check and the server's `readinessChecks`, or shutting down. */
  readiness(): Promise<ReadinessReport>;
  /** Resolves once no storage transaction runs, and the work the server keeps for later (its datastore counts) is written. */
  idle(): Promise<void>;
}

/**
 * The lifecycle of a server on `storage`, and the storage its services use:
 * `storage` with its transactions counted, so `idle` can wait for them.
 * `writeLater` writes what the services keep in memory to write later; `idle` runs it once the transactions are done.
 * `metrics`, when given, is told of every transaction's time and outcome.
 */
export function createLifecycle(
  storage: Storage, checks: readonly ReadinessCheck[] = [], writeLater: () => Promise<void> = async () => undefined, metrics?: ServerMetrics,
): { lifecycle: ServerLifecycle; storage: Storage } {
  const tracked = trackTransactions(storage, metrics);
  const probe = createReadinessProbe([storageCheck(tracked.storage), ...checks]);
  let draining = false;
  return {
    storage: tracked.storage,
    lifecycle: {
      get draining() { return draining; },
      drain() { draining = true; },
      async readiness() {
        if (draining) return { status: "shutting_down" };
        const report = await probe();
        // A shutdown that began while the checks ran wins.
        return draining ? { status: "shutting_down" } : report;
      },
      async idle() {
        await tracked.idle();
        await writeLater();
        await tracked.idle();
      },
    },
  };
}

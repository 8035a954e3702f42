import { tables, type Storage } from "@playfield/core";

/**
 * A dependency the server needs to serve: `/readyz` answers 503 naming it
 * while `check` rejects (or takes longer than READINESS_TIMEOUT_MS).
 *
 * @example
 * const redisCheck: ReadinessCheck = { name: "redis", check: () => redis.ping() };
 * createServer({ storage, readinessChecks: [redisCheck] });
 */
export interface ReadinessCheck {
  /** Shown in `/readyz`'s list of failing checks: a short lowercase name such as `redis`. */
  name: string;
  /** Resolves when the dependency answers; rejects when it does not. Keep it cheap: probes call it every few seconds. */
  check(): Promise<unknown>;
}

/** What `/readyz` answers: ready, or the names of the checks that failed, or shutting down. */
export type ReadinessReport =
  | { status: "ready" }
  | { status: "not_ready"; failing: string[] }
  | { status: "shutting_down" };

/** How long one check may take before it counts as failing. */
export const READINESS_TIMEOUT_MS = 2_000;

/** The check every server has: one read-only transaction with one read, a round trip to the database. */
export function storageCheck(storage: Storage): ReadinessCheck {
  return { name: "storage", check: () => storage.transact((tx) => tx.get(tables.signingKeys, "readiness"), { readOnly: true }) };
}

/**
 * Runs the checks side by side, each bounded by READINESS_TIMEOUT_MS.
 * Probes that arrive while a run is under way share it, so a burst of
 * probes costs the database one transaction.
 */
export function createReadinessProbe(checks: readonly ReadinessCheck[]): () => Promise<ReadinessReport> {
  const names = new Set<string>();
  for (const { name } of checks) {
    if (names.has(name)) throw new Error(`readiness check ${JSON.stringify(name)} is given twice: give each check its own name`);
    names.add(name);
  }
  let running: Promise<ReadinessReport> | null = null;
  const run = async (): Promise<ReadinessReport> => {
    const outcomes = await Promise.all(checks.map(async ({ name, check }) => ((await passes(check)) ? null : name)));
    const failing = outcomes.filter((name): name is string => name !== null);
    return failing.length === 0 ? { status: "ready" } : { status: "not_ready", failing };
  };
  return () => (running ??= run().finally(() => { running = null; }));
}

async function passes(check: () => Promise<unknown>): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => { timer = setTimeout(() => resolve(false), READINESS_TIMEOUT_MS); });
  try {
    // A check that throws before it returns a promise fails like one that rejects.
    return await Promise.race([Promise.resolve().then(check).then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

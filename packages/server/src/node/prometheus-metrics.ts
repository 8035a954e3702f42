import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Storage } from "@playfield/core";
import type { AdminRoute } from "../observe/admin-handler.js";
import type { MethodMetrics, ServerMetrics } from "../observe/server-metrics.js";

/** Prometheus metrics of one server: the metrics port, its registry, and the admin route that serves them. */
export interface PrometheusMetrics extends ServerMetrics {
  /** This server's series (not prom-client's global registry: a process may run many servers, as test suites do). */
  readonly registry: Registry;
  /** `GET /metrics`: this server's series and the process's, in the Prometheus text format. */
  readonly route: AdminRoute;
  /** The text `/metrics` answers. */
  text(): Promise<string>;
}

/** Options of `createPrometheusMetrics`. */
export interface PrometheusMetricsOptions {
  /** The storage whose own figures (retries, pool) are read at each scrape, when it keeps them (`storage.stats`). */
  storage?: Storage;
  /** Include the process's figures (CPU, memory, event loop, GC: prom-client's default metrics). Default true. */
  processMetrics?: boolean;
}

// Seconds: a call answered from memory takes well under a millisecond; one waiting on a database, several.
const CALL_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const TRANSACTION_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** The process's figures are the same for every server in it: one registry for them, made at the first need. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * Creates Prometheus metrics for one server (prom-client), in a registry of
 * its own: pass it as the server's `metrics` and mount `route` on the admin
 * listener (`startServer({ admin })` does both). docs/operators.md lists
 * every series.
 *
 * @example
 * const metrics = createPrometheusMetrics({ storage });
 * const server = createServer({ storage, metrics });
 * const admin = await listenAdmin(createAdminHandler({ routes: [metrics.route] }), { port: 9091 });
 */
export function createPrometheusMetrics(options: PrometheusMetricsOptions = {}): PrometheusMetrics {
  const registry = new Registry();
  const registers = [registry];
  const calls = new Counter({
    name: "playfield_rpc_calls_total", help: "API calls answered, by service, method and code (ok or the error's wire code).",
    labelNames: ["service", "method", "code"] as const, registers,
  });
  const latency = new Histogram({
    name: "playfield_rpc_duration_seconds", help: "Time from a call read to its answer made, by service and method.",
    labelNames: ["service", "method"] as const, buckets: CALL_BUCKETS, registers,
  });
  const connections = new Gauge({ name: "playfield_realtime_connections", help: "Realtime WebSocket connections open.", registers });
  const frames = new Counter({
    name: "playfield_realtime_frames_total", help: "Realtime frames received from clients (in) and sent to them (out).",
    labelNames: ["direction"] as const, registers,
  });
  const framesIn = frames.labels("in");
  const framesOut = frames.labels("out");
  const transactions = new Counter({
    name: "playfield_storage_transactions_total", help: "Storage transactions ended, by outcome (committed, or rolled_back: the function threw or the storage gave up).",
    labelNames: ["outcome"] as const, registers,
  });
  const committed = transactions.labels("committed");
  const rolledBack = transactions.labels("rolled_back");
  const transactionTime = new Histogram({
    name: "playfield_storage_transaction_duration_seconds", help: "Time a storage transaction took, its runs again after conflicts included.",
    buckets: TRANSACTION_BUCKETS, registers,
  });
  const { storage } = options;
  new Counter({
    name: "playfield_storage_retries_total", help: "Storage transactions run again after a conflict (serialization failure or deadlock); 0 where the storage never retries.",
    registers,
    collect() {
      // The storage counts them; a counter is set to its figure at each scrape.
      this.reset();
      this.inc(storage?.stats?.().retries ?? 0);
    },
  });
  if (storage?.stats?.().pool !== undefined) {
    new Gauge({
      name: "playfield_storage_pool_connections", help: "Database connections of the storage's pool, by state: open (in use or idle), idle, max (the most it opens), waiting (sessions waiting for one).",
      labelNames: ["state"] as const, registers,
      collect() {
        const pool = storage.stats!().pool!;
        this.set({ state: "open" }, pool.open);
        this.set({ state: "idle" }, pool.idle);
        this.set({ state: "max" }, pool.max);
        this.set({ state: "waiting" }, pool.waiting);
      },
    });
  }
  // Kept per server: the default metrics' registry is merged in at each scrape.
  const withProcess = options.processMetrics ?? true;
  const text = async () => (withProcess ? Registry.merge([registry, processMetrics()]) : registry).metrics();
  return {
    registry,
    text,
    route: async (request) => {
      if (new URL(request.url).pathname !== "/metrics") return undefined;
      if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { allow: "GET, HEAD" } });
      return new Response(request.method === "HEAD" ? null : await text(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
    },
    method(service, method): MethodMetrics {
      const short = service.slice(service.lastIndexOf(".") + 1);
      const timer = latency.labels(short, method);
      // One child per code seen, so a call does no label lookup.
      const byCode = new Map<string, Counter.Internal>();
      return {
        call(code, seconds) {
          let counter = byCode.get(code);
          if (counter === undefined) byCode.set(code, counter = calls.labels(short, method, code));
          counter.inc();
          timer.observe(seconds);
        },
      };
    },
    realtimeConnections(delta) {
      connections.inc(delta);
    },
    realtimeFrame(direction) {
      (direction === "in" ? framesIn : framesOut).inc();
    },
    transaction(seconds, ok) {
      (ok ? committed : rolledBack).inc();
      transactionTime.observe(seconds);
    },
  };
}

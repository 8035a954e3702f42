import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { publicUrlRefusal, tables } from "@playfield/core";
import { createServer, type Server } from "../create-server.js";
import { createAdminHandler, type AdminRoute } from "../observe/admin-handler.js";
import type { LogLevel } from "../observe/logger.js";
import type { ServerOptions } from "../server-options.js";
import { AdminPortInUseError, listenAdmin, type AdminListener } from "./admin-listener.js";
import { createLogger } from "./create-logger.js";
import { createPrometheusMetrics, type PrometheusMetrics } from "./prometheus-metrics.js";
import { sweepSessions } from "../services/session/roster.js";
import { drainServer, SHUTDOWN_TIMEOUT_MS } from "./drain-server.js";
import { nodeHttpAdapter } from "./node-http-adapter.js";
import { websocketAdapter, type WebSocketAdapter, type WebSocketAdapterOptions } from "./websocket-adapter.js";

/** How a server listens on a port. */
export interface ListenOptions {
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. Any host beyond loopback needs the server's `publicUrl` ({@link PublicUrlRequiredError}). */
  host?: string;
  /** The realtime WebSocket at `GET /realtime` (ping interval, backpressure limits). */
  websocket?: WebSocketAdapterOptions;
  /** How often silent session members are swept out. Default 15 000 ms; 0 turns the sweep off (the session methods still drop them as they go). */
  sessionSweepMs?: number;
  /** The admin listener: a port of its own (never the public one) serving `routes`. Default none. */
  admin?: AdminListenOptions;
}

/** Where the admin listener listens and what it serves. */
export interface AdminListenOptions {
  /** 0 picks a free one. */
  port: number;
  /** Default 127.0.0.1: this machine alone. */
  host?: string;
  /** Asked in order (the first Response answers, else 404). `startServer` puts its metrics' `/metrics` first. */
  routes?: readonly AdminRoute[];
}

/** Options of `startServer`: the server's and how it listens. */
export interface StartServerOptions extends ServerOptions, ListenOptions {
  /** Log lines at this level and above, as JSON lines on stdout (`createLogger`), when `log` is not given. Default: none. */
  logLevel?: LogLevel;
}

/** A listening Playfield server: the server it was given, plus its socket. */
export type StartedServer<S extends Server = Server> = S & {
  /** `http://127.0.0.1:8080` */
  url: string;
  http: HttpServer;
  /** The realtime WebSocket server (`ws://…/realtime`). */
  realtime: WebSocketAdapter;
  /** The admin listener, when `admin` was given. */
  admin: AdminListener | null;
  /**
   * Shuts down gracefully: `/readyz` answers 503, the port stops accepting,
   * requests and transactions under way finish, WebSockets close with 1012.
   * What is still running after `timeoutMs` (default SHUTDOWN_TIMEOUT_MS,
   * 10 s) is cut, and `onInternalError` told. The storage stays open: it is
   * the caller's.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
};

/**
 * Puts a server (from createServer, or createMemoryServer) on a port, with
 * the realtime WebSocket and the session sweep. Every table is set up
 * first (`storage.init(allTables)`), so the first call finds them.
 *
 * @example
 * const started = await listen(createServer({ storage }), { port: 0 });
 * await started.close();
 */
export async function listen<S extends Server>(server: S, options: ListenOptions = {}): Promise<StartedServer<S>> {
  const { port = 8080, host = "127.0.0.1", websocket, sessionSweepMs = 15_000, admin: adminOptions } = options;
  const { config } = server.deps;
  const refusal = publicUrlRefusal(host, config.publicUrl);
  if (refusal !== null) throw new PublicUrlRequiredError(host, refusal);
  await server.deps.storage.init(tables.allTables);
  const http = createHttpServer(nodeHttpAdapter(server));
  const realtime = websocketAdapter(http, server.deps, websocket);
  http.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => resolve());
  });
  let admin: AdminListener | null = null;
  if (adminOptions !== undefined) {
    const { log, onInternalError } = server.deps;
    const handler = createAdminHandler({ routes: adminOptions.routes ?? [], ...(log && { log }), onInternalError });
    const adminHost = adminOptions.host ?? "127.0.0.1";
    admin = await listenAdmin(handler, { port: adminOptions.port, host: adminHost }).catch(async (error: NodeJS.ErrnoException) => {
      // The public port is open already: closed again, so a failed start leaves nothing listening.
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      throw error.code === "EADDRINUSE" ? new AdminPortInUseError(adminOptions.port, adminHost) : error;
    });
  }
  const address = http.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  // On loopback the bound address is the one players (this machine's) reach: it is known only now (port 0).
  config.publicUrl ??= `http://${shownHost}:${address.port}`;
  // Silent members are dropped on a timer too, so rosters shrink while nobody calls.
  const sweeper = sessionSweepMs > 0
    ? setInterval(() => { sweepSessions(server.deps).catch((error: unknown) => server.deps.onInternalError(error)); }, sessionSweepMs)
    : null;
  sweeper?.unref();
  return {
    ...server,
    url: `http://${shownHost}:${address.port}`,
    http,
    realtime,
    admin,
    async close({ timeoutMs = SHUTDOWN_TIMEOUT_MS } = {}) {
      if (sweeper) clearInterval(sweeper);
      // Metrics stay reachable while the public port drains.
      await drainServer(http, realtime, server.lifecycle, timeoutMs, (error) => server.deps.onInternalError(error));
      await admin?.close();
    },
  };
}

/** Serving beyond loopback without a configured public address ({@link publicUrlRefusal} says why). */
export class PublicUrlRequiredError extends Error {
  override readonly name = "PublicUrlRequiredError";
  constructor(readonly host: string, message: string) {
    super(message);
  }
}

/**
 * Creates a server and starts it listening on a port. With `admin`, the
 * admin listener serves `GET /metrics` (Prometheus metrics made for this
 * server, unless `metrics` is given) before the admin routes; with
 * `logLevel`, JSON log lines go to stdout.
 *
 * @example
 * const server = await startServer({ storage: createMemoryStorage(), port: 0, admin: { port: 0 }, logLevel: "info" });
 * const client = createClient({ baseUrl: server.url });
 * await server.close();
 */
export async function startServer(options: StartServerOptions): Promise<StartedServer & { metrics: PrometheusMetrics | null }> {
  const { port, host, websocket, sessionSweepMs, admin, logLevel, ...serverOptions } = options;
  const made = admin !== undefined && serverOptions.metrics === undefined ? createPrometheusMetrics({ storage: serverOptions.storage }) : null;
  const log = serverOptions.log ?? (logLevel !== undefined ? createLogger(logLevel) : undefined);
  const server = createServer({ ...serverOptions, ...(made && { metrics: made }), ...(log && { log }) });
  const routes = [...(made ? [made.route] : []), ...(admin?.routes ?? [])];
  const started = await listen(server, { port, host, websocket, sessionSweepMs, ...(admin && { admin: { ...admin, routes } }) });
  return Object.assign(started, { metrics: made });
}

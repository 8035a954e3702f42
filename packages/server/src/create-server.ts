import { createDenyListFilter } from "@playfield/core";
import { createScryptHasher } from "./crypto/create-scrypt-hasher.js";
import { gateHasher } from "./crypto/hashing-gate.js";
import { createTokenSigner } from "./crypto/create-token-signer.js";
import { hashToken } from "./crypto/random-token.js";
import { createLifecycle, type ServerLifecycle } from "./lifecycle/server-lifecycle.js";
import { createStorageBlobStore } from "./ports/blob-store.js";
import { createSystemClock, type Clock } from "./ports/clock.js";
import { createRandomIds } from "./ports/ids.js";
import { withProviders } from "./ports/payments/index.js";
import { createLocalRealtimeHub } from "./ports/realtime-hub.js";
import { createLocalPresenceDirectory } from "./ports/presence-directory.js";
import { createCors, type Cors } from "./routes/cors.js";
import { createFetchHandler, type FetchHandler } from "./routes/fetch-handler.js";
import { createResponder, type Responder } from "./routes/respond.js";
import type { RawRoute } from "./routes/route.js";
import { serverRoutes } from "./routes/server-routes.js";
import { createRouter } from "./rpc/router.js";
import { createRpcHandler, type RpcHandler } from "./rpc/rpc-handler.js";
import type { ServerDeps } from "./server-deps.js";
import { resolveConfig, type ServerOptions } from "./server-options.js";
import { flushCounts } from "./services/datastore/counts-in-process.js";
import { createDatastoreOperator, type DatastoreOperator } from "./services/datastore/operator.js";
import { createEconomyOperator, type EconomyOperator } from "./services/economy/operator.js";
import { createSequence } from "./services/economy/ledger.js";
import { implementations, serviceRoutes } from "./services/index.js";
import { adminReportsRoute, createReportsOperator, type ReportsOperator } from "./services/safety/operator.js";
import { resolveSessionSettings } from "./services/session/settings.js";

/** A Playfield server: a fetch handler and the parts around it. */
export interface Server {
  /** The server as a `fetch` function (same signature as the global one): hand it to the client. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** The server as a fetch handler `(Request, env) => Response`, for adapters. */
  handle: FetchHandler;
  /** The server as one function of a plain request (every route, CORS applied): adapters that can skip building a `Request` call it. */
  respond: Responder;
  /** The RPC layer alone. */
  rpc: RpcHandler;
  /** Which web origins may call the API (`webOrigins`, and loopback outside production); `respond` and `handle` apply it. */
  cors: Cors;
  clock: Clock;
  deps: ServerDeps;
  /** Back-office actions that are not part of the public API: move payouts, grant credits, the report queue, old datastore values. */
  operator: ServerOperator;
  /** Readiness (`/readyz`) and shutdown: an adapter calls `drain` when it stops, then waits for `idle`. */
  lifecycle: ServerLifecycle;
}

/** Back-office actions on a server. */
export interface ServerOperator {
  payouts: EconomyOperator["payouts"];
  wallets: EconomyOperator["wallets"];
  reports: ReportsOperator;
  datastore: DatastoreOperator;
}

/**
 * Creates a Playfield server on the given storage, with no port: pass
 * `server.fetch` to a client or msw, or `server` to `listen` from
 * `@playfield/server/node`. Defaults are those of production; test suites
 * use `createMemoryServer` from @playfield/server-memory, which picks test
 * defaults over this.
 *
 * @example
 * const server = createServer({ storage: createMemoryStorage(), environment: "development" });
 * const response = await server.fetch("http://localhost/healthz");
 */
export function createServer(options: ServerOptions): Server {
  const config = resolveConfig(options);
  const clock = options.clock ?? createSystemClock();
  const { log, metrics } = options;
  const onInternalError = options.onInternalError ?? (log
    ? (error: unknown, context?: { requestId?: string }) => log.error({ err: error, ...(context?.requestId !== undefined && { reqId: context.requestId }) }, "internal error")
    : (error: unknown) => console.error("playfield: internal error", error));
  // Services use the storage through the lifecycle, which counts transactions so a shutdown lets them finish.
  // Idle (a shutdown) writes the datastore calls counted in memory.
  const { lifecycle, storage } = createLifecycle(options.storage, options.readinessChecks, () => flushCounts(deps), metrics);
  const { hasher, gate: hashing } = gateHasher(options.hasher ?? createScryptHasher(), config.passwordHashing);
  const deps: ServerDeps = {
    clock,
    storage,
    signer: options.signer ?? createTokenSigner({ keys: options.keys }),
    hasher,
    hashing,
    ids: options.ids ?? createRandomIds(),
    realtime: options.realtime ?? createLocalRealtimeHub(),
    presence: options.presence ?? createLocalPresenceDirectory(),
    blobs: options.blobs ?? createStorageBlobStore(storage),
    payments: withProviders(options.payments),
    sessions: resolveSessionSettings(options.sessions),
    chatFilter: options.chatFilter ?? createDenyListFilter(),
    config,
    sequence: createSequence(clock),
    hashSecret: hashToken,
    onInternalError,
    ...(metrics && { metrics }),
    ...(log && { log }),
  };
  const rawRoutes: RawRoute[] = [serverRoutes(deps, lifecycle), ...serviceRoutes(deps), adminReportsRoute(deps, options.operatorToken)];
  const rpc = createRpcHandler(deps, createRouter(implementations), onInternalError);
  const cors = createCors(config);
  const respond = createResponder(rpc, rawRoutes, cors, onInternalError, { metrics, log });
  const handle = createFetchHandler(respond);
  return {
    handle,
    respond,
    rpc,
    cors,
    fetch: (input, init) => handle(input instanceof Request && init === undefined ? input : new Request(input, init)),
    clock,
    deps,
    operator: { ...createEconomyOperator(deps), reports: createReportsOperator(deps), datastore: createDatastoreOperator(deps) },
    lifecycle,
  };
}

import { createDenyListFilter, DEFAULT_DATASTORE_LIMITS, DEFAULT_LIFETIMES, fail, type ChatFilter, type DatastoreLimits, type RateRule, type Storage, type StorageSnapshot, type TokenLifetimes } from "@playfield/core";
import { createTokenSigner } from "./crypto/create-token-signer.js";
import { hashToken } from "./crypto/random-token.js";
import type { SigningKey } from "./crypto/signing-key.js";
import { createScryptHasher, FAST_TEST_COST } from "./crypto/create-scrypt-hasher.js";
import { createFetchHandler, type FetchHandler, type RawRoute } from "./routes/fetch-handler.js";
import { createRpcHandler, type RpcHandler } from "./rpc/rpc-handler.js";
import { createRandomIds } from "./ports/ids.js";
import { createMemoryBlobStore, type BlobStore } from "./ports/blob-store.js";
import { withProviders, type PaymentProvider } from "./ports/payments/index.js";
import { resolveSessionSettings, type SessionSettings } from "./ports/allocator.js";
import { createLocalRealtimeHub, type RealtimeHub } from "./ports/realtime-hub.js";
import { resolveChatRate } from "./services/chat/rate.js";
import { createMovableClock, type MovableClock } from "./ports/movable-clock.js";
import { createRouter } from "./rpc/router.js";
import { createEconomyOperator, type EconomyOperator } from "./services/economy/operator.js";
import { adminReportsRoute, createReportsOperator, type ReportsOperator } from "./services/safety/operator.js";
import type { IdGenerator, PasswordHasher, ServerConfig, ServerDeps, TokenSigner } from "./server-deps.js";
import { implementations, serviceRoutes } from "./services/index.js";
import { createMemoryStorage } from "./ports/memory-storage/memory-storage.js";
import { createSeeder, type Seeder } from "../../server-memory/src/testing/seed.js";

/** Options of a Playfield server. Every part is replaceable; every default is documented. */
export interface ServerOptions {
  /** Default: a movable real-time clock (`server.clock.advance(ms)` in tests). */
  clock?: MovableClock;
  /** Default: the in-memory adapter. */
  storage?: Storage;
  /** Default: node:crypto Ed25519 with one key generated at start. */
  signer?: TokenSigner;
  /** Signing keys for the default signer (the first signs, any verifies). */
  keys?: SigningKey[];
  /** Default: scrypt on node:crypto's thread pool; at a fast, weak cost when `environment` is "test". */
  hasher?: PasswordHasher;
  ids?: IdGenerator;
  /** Default: the in-process hub. */
  realtime?: RealtimeHub;
  /** Where uploaded blobs' bytes live. Default: in memory. */
  blobs?: BlobStore;
  /** Payment providers; each replaces the default of its id (only `sandbox` is configured by default). */
  payments?: readonly PaymentProvider[];
  /** Edge/dedicated allocator (default: an address template), peer signalling URL (default: `ws://<Host>/realtime`), silence limit (default 60 s). */
  sessions?: Partial<SessionSettings>;
  /** Chat text filter. Default: a small deny-list masked for under-13 senders and readers (docs/chat.md). */
  chatFilter?: ChatFilter;
  /** Chat messages per user: a burst of 10, then one every 1000 ms; `null` turns it off. Default off when `environment` is "test" (docs/chat.md). */
  chatRate?: Partial<RateRule> | null;
  environment?: ServerConfig["environment"];
  lifetimes?: Partial<TokenLifetimes>;
  webOrigins?: string[];
  signInThrottle?: Partial<ServerConfig["signInThrottle"]>;
  /** Check every answer against its schema: on except in production (a server bug becomes `internal`, not a malformed answer). */
  validateResponses?: boolean;
  /** Opens GET /admin/reports with `Authorization: Bearer <operatorToken>`; without one the page is served only outside production. */
  operatorToken?: string;
  /** Datastore limits; default 300 + 40 × players calls a minute, 500 MB + 1 MB × players seen, 30 days of old values. */
  datastore?: Partial<DatastoreLimits>;
  /** Called with every failure that answered `internal`, and every failure of background work (presence announcements, session sweeps, realtime handlers). Default: console.error. */
  onInternalError?: (error: unknown) => void;
}

/** An in-memory Playfield server: a fetch handler plus what tests need around it. */
export interface MemoryServer {
  /** The server as a `fetch` function (same signature as the global one): hand it to the client. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** The server as a fetch handler `(Request, env) => Response`, for adapters. */
  handle: FetchHandler;
  /** The RPC layer alone: adapters that can skip building a `Request` call it directly. */
  rpc: RpcHandler;
  clock: MovableClock;
  deps: ServerDeps;
  /** Seed helpers: users, guests, game tokens. */
  seed: Seeder;
  /** Back-office actions that are not part of the public API: move payouts, grant credits. */
  operator: { payouts: EconomyOperator["payouts"]; wallets: EconomyOperator["wallets"]; reports: ReportsOperator };
  /** Drops every record (keys and configuration stay). */
  reset(): Promise<void>;
  /**
   * Copies every record and the clock's time: seed a world once, then
   * `restore` it before each test instead of seeding again. Needs a storage
   * that can copy its data (the memory storage can); otherwise it rejects
   * with `unimplemented`.
   */
  snapshot(): Promise<ServerSnapshot>;
  /** Puts back every record and the clock's time of a snapshot (of this server or another with the same keys). */
  restore(snapshot: ServerSnapshot): Promise<void>;
}

/** What `snapshot` copied: opaque; restore it any number of times. */
export interface ServerSnapshot {
  readonly storage: StorageSnapshot;
  readonly clockMs: number;
}

export function resolveConfig(options: ServerOptions): ServerConfig {
  const environment = options.environment ?? "test";
  return {
    environment,
    lifetimes: { ...DEFAULT_LIFETIMES, ...options.lifetimes },
    webOrigins: options.webOrigins ?? [],
    signInThrottle: {
      perUsername: { limit: 5, windowMs: 15 * 60_000 },
      perAddress: { limit: 50, windowMs: 15 * 60_000 },
      ...options.signInThrottle,
    },
    handoffSeconds: 60,
    validateResponses: options.validateResponses ?? environment !== "production",
    datastore: { ...DEFAULT_DATASTORE_LIMITS, ...options.datastore },
    chatRate: resolveChatRate(options.chatRate, environment),
  };
}

/**
 * Creates an in-memory server in a few milliseconds, with no port: pass
 * `server.fetch` to the client, to msw, or to `startServer` to listen.
 *
 * @example
 * const server = createMemoryServer();
 * const client = createClient({ baseUrl: "http://playfield.test", fetch: server.fetch });
 */
export function createMemoryServer(options: ServerOptions = {}): MemoryServer {
  const config = resolveConfig(options);
  const clock = options.clock ?? createMovableClock();
  const onInternalError = options.onInternalError ?? ((error: unknown) => console.error("playfield: internal error", error));
  const deps: ServerDeps = {
    clock,
    storage: options.storage ?? createMemoryStorage(),
    signer: options.signer ?? createTokenSigner({ keys: options.keys }),
    hasher: options.hasher ?? createScryptHasher(config.environment === "test" ? { cost: FAST_TEST_COST } : {}),
    ids: options.ids ?? createRandomIds(),
    realtime: options.realtime ?? createLocalRealtimeHub(),
    blobs: options.blobs ?? createMemoryBlobStore(),
    payments: withProviders(options.payments),
    sessions: resolveSessionSettings(options.sessions),
    chatFilter: options.chatFilter ?? createDenyListFilter(),
    config,
    hashSecret: hashToken,
    onInternalError,
  };
  const rawRoutes: RawRoute[] = [
    (request, url) => {
      if (request.method !== "GET") return null;
      if (url.pathname === "/healthz") return Response.json({ status: "ok" });
      if (url.pathname === "/.well-known/jwks.json") {
        return Response.json(deps.signer.jwks(), { headers: { "cache-control": "public, max-age=300" } });
      }
      return null;
    },
    ...serviceRoutes(deps),
    adminReportsRoute(deps, options.operatorToken),
  ];
  const rpc = createRpcHandler(deps, createRouter(implementations), onInternalError);
  const handle = createFetchHandler(rpc, rawRoutes, onInternalError);
  return {
    handle,
    rpc,
    fetch: (input, init) => handle(input instanceof Request && init === undefined ? input : new Request(input, init)),
    clock,
    deps,
    seed: createSeeder(deps),
    operator: { ...createEconomyOperator(deps), reports: createReportsOperator(deps) },
    reset: () => deps.storage.clear(),
    async snapshot() {
      const { snapshot } = deps.storage;
      if (!snapshot) throw fail.unimplemented("snapshot: this server's storage cannot copy its data");
      return { storage: await snapshot.call(deps.storage), clockMs: clock.now() };
    },
    async restore(saved) {
      const { restore } = deps.storage;
      if (!restore) throw fail.unimplemented("restore: this server's storage cannot copy its data");
      await restore.call(deps.storage, saved.storage);
      clock.set(saved.clockMs);
    },
  };
}

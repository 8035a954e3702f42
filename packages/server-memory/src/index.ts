/**
 * @playfield/server-memory: Playfield for test suites. `createMemoryServer`
 * is the platform server (@playfield/server) on in-memory storage with the
 * defaults a suite wants: no port, a movable clock, seed helpers, reset,
 * snapshot/restore. msw handlers are at `@playfield/server-memory/msw`.
 * @module
 */

export { createMemoryServer, type MemoryServer, type MemoryServerOptions, type MemoryServerOptions as ServerOptions, type ServerSnapshot } from "./create-memory-server.js";
export { startServer, type StartServerOptions, type StartedServer } from "./start-server.js";
export type { Seeder, SeededUser, SeedUserOptions } from "./testing/seed.js";
export {
  createMemoryStorage, createMovableClock, createRandomIds, createSequentialIds, createTokenSigner, generateSigningKey,
  createScryptHasher, FAST_TEST_COST, DEFAULT_SCRYPT_COST, CryptoBackend,
  type MovableClock, type IdGenerator, type PasswordHasher, type TokenSigner, type TokenSignerOptions, type SigningKey,
  type ServerDeps, type ServerConfig,
} from "@playfield/server";

// Symbols above should be relevant to end users.
// Symbols below should only be relevant for other libraries; they are @playfield/server's, kept here for suites written before the split.
export { nodeHttpAdapter, type NodeApp } from "@playfield/server/node";
export {
  createFetchHandler, createResponder, createRpcHandler, createRouter, MAX_BODY_BYTES,
  type FetchHandler, type RequestEnv, type RawRoute, type Responder, type RouteRequest, type RouteAnswer, type RpcHandler, type IncomingCall, type Answer,
  type ServiceImpl, type MethodImpl, type HandlerContext, type Implementations, type Caller,
} from "@playfield/server";

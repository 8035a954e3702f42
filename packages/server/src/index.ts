/**
 * @playfield/server: the Playfield platform server. A fetch handler built
 * from the API descriptors over any storage adapter, with every injected
 * part (storage, blobs, clock, pub/sub, payments, allocator, ids, hashing,
 * signing) behind a port with an in-process default. The Node adapter is at
 * `@playfield/server/node`; test suites use @playfield/server-memory.
 * @module
 */

export { createServer, type Server, type ServerOperator } from "./create-server.js";
export { DEFAULT_ACCOUNT_CREATION_LIMIT, DEFAULT_SIGN_IN_THROTTLE, type ServerOptions } from "./server-options.js";
export { DEFAULT_HASHING_LIMITS, type HashingLimits } from "./crypto/hashing-gate.js";
export { READINESS_TIMEOUT_MS, type ReadinessCheck, type ReadinessReport } from "./lifecycle/readiness.js";
export type { ServerLifecycle } from "./lifecycle/server-lifecycle.js";
export * from "./ports/index.js";
export { createTokenSigner, type TokenSignerOptions } from "./crypto/create-token-signer.js";
export { generateSigningKey, type SigningKey } from "./crypto/signing-key.js";
export { storedSigningKeys } from "./crypto/stored-signing-keys.js";
export { createScryptHasher, FAST_TEST_COST, DEFAULT_SCRYPT_COST, type ScryptCost, type ScryptHasherOptions } from "./crypto/create-scrypt-hasher.js";
export { CryptoBackend } from "./crypto/crypto-backend.js";
export type { EntryAddress } from "./services/datastore/history.js";
export type { DatastoreOperator } from "./services/datastore/operator.js";
export type { QueuedReport, ReportsOperator } from "./services/safety/operator.js";
export type { EconomyOperator } from "./services/economy/operator.js";
export type { SessionSettings } from "./services/session/settings.js";
export type { ServerConfig, ServerDeps } from "./server-deps.js";
export { createAdminHandler, type AdminRoute, type AdminHandlerOptions } from "./observe/admin-handler.js";
export type { ServerMetrics, MethodMetrics } from "./observe/server-metrics.js";
export { LOG_LEVELS, type Logger, type LogLevel } from "./observe/logger.js";
export { REQUEST_ID_HEADER, requestIdOf } from "./observe/request-id.js";

// Symbols above should be relevant to end users.
// Symbols below should only be relevant for other libraries (adapters, the test kit).
export { createFetchHandler, type FetchHandler, type RequestEnv } from "./routes/fetch-handler.js";
export { createResponder, type Responder } from "./routes/respond.js";
export { jsonAnswer, type RawRoute, type RouteAnswer, type RouteRequest } from "./routes/route.js";
export { createCors, CORS_ALLOW_HEADERS, type Cors } from "./routes/cors.js";
export { createRpcHandler, MAX_BODY_BYTES, type RpcHandler, type IncomingCall, type Answer } from "./rpc/rpc-handler.js";
export { createRouter, type Route, type ServiceImpl, type MethodImpl, type Implementations } from "./rpc/router.js";
export type { HandlerContext } from "./rpc/handler-context.js";
export type { Caller } from "./rpc/caller.js";
export { authResponse, newUser, openDevice, saveUser } from "./services/identity/accounts.js";
export { putMember } from "./services/session/roster.js";
export { orderedRank } from "./services/datastore/ordered-rank.js";

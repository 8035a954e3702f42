/**
 * @playfield/server-memory: the Playfield reference server. A fetch handler
 * built from the API descriptors, in-memory storage, a Node adapter, and
 * helpers for test suites (seeding, a movable clock, msw handlers, the
 * storage conformance suite).
 * @module
 */

export { createMemoryServer, type MemoryServer, type ServerOptions, type ServerSnapshot } from "./create-memory-server.js";
export { startServer, type StartServerOptions, type StartedServer } from "./node/start-server.js";
export { nodeHttpAdapter, type NodeApp } from "./node/node-http-adapter.js";
export { createFetchHandler, type FetchHandler, type RequestEnv, type RawRoute } from "./fetch-handler.js";
export { createRpcHandler, MAX_BODY_BYTES, type RpcHandler, type IncomingCall, type Answer } from "./rpc-handler.js";
export { createRouter, type ServiceImpl, type MethodImpl, type HandlerContext, type Implementations } from "./router.js";
export type { Caller } from "./caller.js";
export type { ServerDeps, ServerConfig, IdGenerator, PasswordHasher, TokenSigner } from "./server-deps.js";
export { createMovableClock, type MovableClock } from "./movable-clock.js";
export { createRandomIds, createSequentialIds } from "./ids.js";
export { createTokenSigner, type TokenSignerOptions } from "./crypto/create-token-signer.js";
export { CryptoBackend } from "./crypto/crypto-backend.js";
export { generateSigningKey, type SigningKey } from "./crypto/signing-key.js";
export { createScryptHasher, FAST_TEST_COST, DEFAULT_SCRYPT_COST } from "./crypto/create-scrypt-hasher.js";
export { createMemoryStorage } from "./storage/memory-storage.js";
export type { Seeder, SeededUser, SeedUserOptions } from "./testing/seed.js";
export { readOldValues, type EntryAddress } from "./services/datastore-history.js";

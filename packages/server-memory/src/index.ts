/**
 * @playfield/server-memory: the Playfield reference server. A fetch handler
 * built from the API descriptors, in-memory storage, a Node adapter, and
 * helpers for test suites (seeding, a movable clock, msw handlers, the
 * storage conformance suite).
 * @module
 */

export { createMemoryServer, type MemoryServer, type ServerOptions, type ServerSnapshot } from "../../server/src/create-server.js";
export { startServer, type StartServerOptions, type StartedServer } from "../../server/src/node/start-server.js";
export { nodeHttpAdapter, type NodeApp } from "../../server/src/node/node-http-adapter.js";
export { createFetchHandler, type FetchHandler, type RequestEnv, type RawRoute } from "../../server/src/routes/fetch-handler.js";
export { createRpcHandler, MAX_BODY_BYTES, type RpcHandler, type IncomingCall, type Answer } from "../../server/src/rpc/rpc-handler.js";
export { createRouter, type ServiceImpl, type MethodImpl, type HandlerContext, type Implementations } from "../../server/src/rpc/router.js";
export type { Caller } from "../../server/src/rpc/caller.js";
export type { ServerDeps, ServerConfig, IdGenerator, PasswordHasher, TokenSigner } from "../../server/src/server-deps.js";
export { createMovableClock, type MovableClock } from "../../server/src/ports/movable-clock.js";
export { createRandomIds, createSequentialIds } from "../../server/src/ports/ids.js";
export { createTokenSigner, type TokenSignerOptions } from "../../server/src/crypto/create-token-signer.js";
export { CryptoBackend } from "../../server/src/crypto/crypto-backend.js";
export { generateSigningKey, type SigningKey } from "../../server/src/crypto/signing-key.js";
export { createScryptHasher, FAST_TEST_COST, DEFAULT_SCRYPT_COST } from "../../server/src/crypto/create-scrypt-hasher.js";
export { createMemoryStorage } from "../../server/src/ports/memory-storage/memory-storage.js";
export type { Seeder, SeededUser, SeedUserOptions } from "./testing/seed.js";
export { readOldValues, type EntryAddress } from "../../server/src/services/datastore/history.js";

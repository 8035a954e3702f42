/**
 * @playfield/client: a typed client of the Playfield platform API, built on
 * fetch alone. One method per API method, tokens kept and refreshed, every
 * failure a `PlayfieldError`.
 * @module
 */

// Symbols above the line are for users of the SDK.
export { createClient, type ClientOptions } from "./create-client.js";
export type { PlayfieldClient, ServiceClient, MethodCall } from "./client-types.js";
export { createAdminClient, type AdminClientOptions, type PlayfieldAdminClient, type AdminServiceClient, type AdminMethodCall } from "./create-admin-client.js";
export type { CallOptions } from "./call-options.js";
export type { ClientAuth, TokensInit, TokenListener } from "./token-session.js";
export { createMemoryTokenStore, type Tokens, type TokenStore } from "./token-store.js";
export { createLocalStorageTokenStore, type LocalStorageTokenStoreOptions, type StorageLike } from "./local-storage-token-store.js";
export type { Interceptor, UnaryFn, UnaryRequest, UnaryResponse } from "./interceptor.js";
export { PlayfieldError, Code, isCode, type FieldIssue } from "@playfield/core/wire";
export * from "./realtime/index.js";

// Symbols below are for other Playfield packages and adapters.
/** @private Internal code, does not follow semantic versioning. */
export type { MethodInfo, ApiTable } from "./api-table.js";

/*
 * Every part the server is given rather than builds: the interfaces it calls
 * through, and beside each the in-process default it uses when none is given.
 * A deployment replaces any of them in `createServer(options)`.
 */
export { createMemoryStorage, type Cursor, type IndexDef, type IndexKey, type KeyRange, type Query, type Storage, type StorageSnapshot, type TableDef, type Tx } from "./storage.js";
export { createSystemClock, type Clock } from "./clock.js";
export { createMovableClock, type MovableClock } from "./movable-clock.js";
export { createMemoryBlobStore, createStorageBlobStore, type BlobStore } from "./blob-store.js";
export { createLocalPubSub, type RealtimePubSub, type TopicListener } from "./pubsub.js";
export { createLocalPresenceDirectory, type PresenceDirectory, type PresenceListener } from "./presence-directory.js";
export { createLocalRealtimeHub, createRealtimeHub, type RealtimeConnection, type RealtimeEvent, type RealtimeHub, type RealtimeHubOptions } from "./realtime-hub.js";
export { defaultPaymentProviders, CHECKOUT_PATH, type PaymentProvider } from "./payments/index.js";
export { createUnconfiguredProvider } from "./payments/unconfigured-provider.js";
export { createTemplateAllocator, DEFAULT_ALLOCATOR_TEMPLATE, type AllocationRequest, type SessionAllocator } from "./allocator.js";
export { createRandomIds, createSequentialIds, type IdGenerator } from "./ids.js";
export type { PasswordHasher } from "./password-hasher.js";
export type { Ed25519PublicJwk, Jwks, TokenSigner } from "./token-signer.js";
export { createDenyListFilter, type ChatFilter } from "@playfield/core";

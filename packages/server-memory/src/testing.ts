/**
 * `@playfield/server-memory/testing`: the storage conformance suite, for
 * adapters (it imports vitest).
 * @module
 */
export { storageContract } from "@playfield/storage-contract";

/**
 * `@playfield/server-memory/testing`: the storage conformance suite, for
 * adapters (it imports vitest).
 * @module
 */
export { storageContract } from "./testing/storage-contract.js";

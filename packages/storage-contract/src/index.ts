/**
 * @playfield/storage-contract: the storage conformance suite. Call
 * `storageContract(name, factory)` in a Vitest file to register the tests
 * every adapter of the storage port must pass; it depends on
 * @playfield/core alone (and imports vitest and fast-check).
 * @module
 */
export { storageContract, type StorageContractOptions } from "./storage-contract.js";

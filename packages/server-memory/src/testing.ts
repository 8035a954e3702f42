/**
 * `@playfield/server-memory/testing`: the storage conformance suite, kept
 * here for suites written before it moved to @playfield/storage-contract
 * (import it from there: it needs the core alone).
 * @module
 */
export { storageContract, type StorageContractOptions } from "@playfield/storage-contract";

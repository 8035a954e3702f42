/*
 * The storage port. Its interface and the table schema live in
 * @playfield/core, so an adapter depends on the core alone; the server
 * takes any adapter through `createServer({ storage })`. The in-process
 * adapter, createMemoryStorage, is in memory-storage/ beside this file.
 */
export type { Cursor, IndexDef, IndexKey, KeyRange, Query, Storage, StorageSnapshot, TableDef, Tx } from "@playfield/core";
export { createMemoryStorage } from "./memory-storage/index.js";

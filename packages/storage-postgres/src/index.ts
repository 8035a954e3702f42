/** PostgreSQL storage for Playfield: the core's storage port on a PostgreSQL server (node-postgres) or on embedded PGlite. */
export { createPgliteStorage, createPostgresStorage, type PgliteStorageOptions, type PostgresStorageOptions } from "./create-storage.js";
export { createSqlStorage, type BulkPut, type SqlStorage, type SqlStorageOptions } from "./sql-storage.js";
export { pgDatabase } from "./pg-database.js";
export { pgliteDatabase } from "./pglite-database.js";
export type { Listener, ListenHandlers, Sql, SqlDatabase, SqlSession, WholeMessage } from "./sql-database.js";

// Symbols below are for tests and other adapters.
/** @private Internal code, does not follow semantic versioning. */
export { decodeKey, encodeKey } from "./key-encoding.js";
/** @private Internal code, does not follow semantic versioning. */
export { decodeRow, encodeRow } from "./row-codec.js";

/*
 * The two ready-made storages: on a PostgreSQL server, and on PGlite in a
 * data folder (or in memory).
 */
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { pgDatabase } from "./pg-database.js";
import { pgliteDatabase } from "./pglite-database.js";
import { createSqlStorage, type SqlStorage, type SqlStorageOptions } from "./sql-storage.js";

/** Where the PostgreSQL server is: a connection URL, or a node-postgres pool (or its config). */
export interface PostgresStorageOptions extends SqlStorageOptions {
  /** A connection URL, e.g. `postgres://postgres@127.0.0.1:5432/playfield`. */
  url?: string;
  /** A pool of your own, or a pool config (`max` connections: default 10). */
  pool?: pg.Pool | pg.PoolConfig;
  /**
   * Where the connection that listens for notices of written rows goes,
   * when the pool's cannot hold a LISTEN (PgBouncer in transaction mode):
   * PostgreSQL directly, or a PgBouncer in session mode. Default: the pool's.
   */
  listenUrl?: string;
  /**
   * Keep statements prepared on each connection (default true). False when
   * the pool's connections go through a pooler in transaction mode
   * (PgBouncer): see docs/storage.md, "Isolation and retries".
   */
  prepare?: boolean;
}

/**
 * The storage on a PostgreSQL server. Tables are created in `schema`
 * (default "public") on first use, or all at once with `init(allTables)`.
 *
 * @example
 * const storage = createPostgresStorage({ url: process.env.DATABASE_URL });
 * await storage.init(allTables);
 * // … createServer({ storage }) …
 * await storage.close();
 */
export function createPostgresStorage(options: PostgresStorageOptions): SqlStorage {
  const source = options.pool ?? options.url;
  if (source === undefined) throw new Error("createPostgresStorage: give a url or a pool");
  return createSqlStorage(pgDatabase(source, { listenUrl: options.listenUrl, prepare: options.prepare }), options);
}

/** Where PGlite keeps its data. */
export interface PgliteStorageOptions extends SqlStorageOptions {
  /** A folder (created when missing); in memory when left out. */
  dataDir?: string;
  /** A PGlite instance of your own instead. */
  pglite?: PGlite;
}

/**
 * The storage on embedded PGlite (PostgreSQL in WebAssembly, in this
 * process): persistent in `dataDir`, or in memory. One connection, so
 * transactions run one at a time and never conflict.
 *
 * @example
 * const storage = createPgliteStorage({ dataDir: "./data" });
 */
export function createPgliteStorage(options: PgliteStorageOptions = {}): SqlStorage {
  return createSqlStorage(pgliteDatabase(options.pglite ?? options.dataDir), options);
}

/*
 * The one small query interface the adapter needs, so that the same adapter
 * runs on a PostgreSQL server (node-postgres) and on embedded PGlite.
 */

import type { StorageStats } from "@playfield/core";

/**
 * One statement with its `$1…` parameters (Uint8Array for bytea), which go
 * apart from the text: the driver binds them.
 */
export interface Sql {
  text: string;
  params: readonly unknown[];
  /**
   * Prepared once per connection and run by name after that (the default).
   * False for a statement whose best plan depends on its values (a range,
   * an offset), which PostgreSQL would otherwise plan once for all values.
   */
  prepare?: boolean;
}

/** A connection's queries, run in call order. */
export interface SqlSession {
  /**
   * Runs one statement with `$1…` parameters (Uint8Array for bytea) and
   * answers its rows. With no parameters it goes as a simple query, which may
   * hold several statements: the rows are then the last one's.
   */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * Runs statements in order, sent together (one round trip where the
   * driver pipelines), and answers each one's rows, in order. The first
   * that fails fails the whole; the ones after it do not run, or fail too
   * (PostgreSQL refuses every statement after a failed one until the
   * transaction ends).
   */
  batch<Row = Record<string, unknown>>(statements: readonly Sql[]): Promise<Row[][]>;
}

/** A transaction whole, from BEGIN to COMMIT (`SqlDatabase.whole`). */
export interface WholeMessage {
  statements: Sql[];
  /** It writes nothing that must outlive a crash (a read-only transaction, a NOTIFY): its answer waits for no disk. */
  readOnly?: boolean;
}

/** A database: sessions on connections of their own. */
export interface SqlDatabase {
  /** What it is, for messages ("postgres", "pglite"). */
  readonly kind: string;
  /**
   * Runs `fn` on a connection that no other session uses until `fn` settles.
   * Sessions beyond the database's connections wait their turn (PGlite has
   * one connection, so its sessions run one at a time).
   */
  session<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Runs a transaction whole (`BEGIN; …; COMMIT`) on any connection, and
   * answers each statement's rows, in order; where it fails, with the error
   * of the statement that failed (nothing of it is committed then). Under
   * load the transactions of many callers go together on one connection,
   * one after the other (grouped-commits.ts).
   */
  whole?<Row = Record<string, unknown>>(message: WholeMessage): Promise<Row[][]>;
  /**
   * Settles once every commit made so far is on disk, where a commit returns
   * before (PGlite in a folder: pglite-disk.ts). Called before answering
   * anything that wrote; absent where a commit returns once on disk.
   */
  durable?(): Promise<void>;
  /** Closes every connection; sessions already running finish first. */
  close(): Promise<void>;
  /** The pool's connections now, where the database keeps a pool (node-postgres). */
  pool?(): NonNullable<StorageStats["pool"]>;
  /** No other process can write this database (PGlite): a process that knows its own writes knows them all. */
  readonly oneProcess?: boolean;
  /**
   * Listens on `channel` (LISTEN) on a connection of its own: `notice` gets
   * each payload; `listening` is called with true once listening and with
   * false when the connection is lost (notices may have been missed), and
   * the database listens again after a pause. Answers how to stop, and how
   * to notify the channel (on that connection while it is up: no wait for
   * a pooled one).
   */
  listen?(channel: string, handlers: ListenHandlers): Listener;
}

/** What `SqlDatabase.listen` answers. */
export interface Listener {
  /** NOTIFY the channel with `payload`. */
  notify(payload: string): Promise<void>;
  stop(): Promise<void>;
}

/** What `SqlDatabase.listen` calls. */
export interface ListenHandlers {
  notice(payload: string): void;
  listening(on: boolean): void;
}

/** A session of `database` taken at the first `get` and held until `release`: a transaction holds no connection before it needs one. */
export class HeldSession {
  private session: Promise<SqlSession> | undefined;
  private end: (() => void) | undefined;
  private ended: Promise<unknown> | undefined;

  constructor(private readonly database: SqlDatabase) {}

  /** Whether a session was taken (or asked for). */
  get taken(): boolean {
    return this.session !== undefined;
  }

  get(): Promise<SqlSession> {
    return this.session ??= new Promise<SqlSession>((resolve, reject) => {
      const released = new Promise<void>((done) => (this.end = done));
      this.ended = this.database.session((session) => {
        resolve(session);
        return released;
      });
      // A connection that could not be made: `get` fails with it.
      this.ended.catch(reject);
    });
  }

  /** Gives the session back, once the database let go of it; nothing when none was taken. */
  async release(): Promise<void> {
    this.end?.();
    await this.ended?.catch(() => undefined);
  }
}

/** Runs tasks one at a time, in call order. */
export type Queue = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * A queue: each task starts when the one before it settles (PGlite's
 * sessions take turns on its one connection, and each session's queries
 * run in call order).
 */
export function createQueue(): Queue {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
}

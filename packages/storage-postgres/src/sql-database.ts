/*
 * The one small query interface the adapter needs, so that the same adapter
 * runs on a PostgreSQL server (node-postgres) and on embedded PGlite.
 */

import type { StorageStats } from "@playfield/core";
import type { PreparedStatements } from "./prepared-statements.js";
import type { Sql } from "./sql-statement.js";

/** A connection's queries, run one after the other in call order. */
export interface SqlSession {
  /**
   * The statements this connection has prepared, when its database keeps
   * them per connection: a transaction's statements then go by name with
   * their values (prepared-statements.ts). Without it they go as texts,
   * their parameters written in.
   */
  readonly prepared?: PreparedStatements;
  /**
   * Runs one statement with `$1…` parameters (Uint8Array for bytea) and
   * answers its rows. With no parameters it goes as a simple query, which may
   * hold several statements: the rows are then the last one's.
   */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /**
   * Runs statements (texts without parameters, or statements of `prepared`
   * by name) as one message, one round trip, and answers each one's rows,
   * in order. The first that fails fails the whole, and the ones after it
   * do not run.
   */
  batch<Row = Record<string, unknown>>(statements: readonly Sql[]): Promise<Row[][]>;
}

/** A transaction's one message as written for one connection (`SqlDatabase.whole`). */
export interface WholeMessage {
  /** Its statements, from BEGIN to COMMIT. */
  statements: Sql[];
  /** The statements it prepares on the connection (`PreparedStatements.write`), forgotten if it fails or does not run. */
  fresh: string[];
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
   * Runs a transaction that is one message whole (`BEGIN; …; COMMIT`) on
   * any connection, and answers each statement's rows, in order; where it
   * fails, with the error of the statement that failed (nothing of it is
   * committed then). Under load such messages of many transactions go in
   * one write and run one after the other (whole-messages.ts). `compose`
   * writes the message for the connection that will send it (its prepared
   * statements), again each time it is about to go: a message written
   * behind one that failed did not run, and goes again.
   */
  whole?<Row = Record<string, unknown>>(compose: (prepared: PreparedStatements | undefined) => WholeMessage): Promise<Row[][]>;
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
 * A queue: each task starts when the one before it settles. Sessions queue
 * their queries, since node-postgres deprecates concurrent queries on one
 * client and a transaction's function may well start several reads at once.
 */
export function createQueue(): Queue {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const result = tail.then(task);
    tail = result.catch(() => undefined);
    return result;
  };
}

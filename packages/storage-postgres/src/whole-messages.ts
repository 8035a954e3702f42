/*
 * Transactions that are one message whole (`BEGIN; …; COMMIT`), of many
 * callers, in one write to one connection (docs/storage.md, "Whole
 * transactions in one write", with the figures). Each message Node writes
 * to PostgreSQL costs both sides more than the short statements in it (a
 * socket write, a wake-up of the other process, a read).
 *
 * Messages wait in a queue; a sender takes a connection from the pool, then
 * everything queued (up to MAX_PER_WRITE), and sends it as one message
 * (bound-statements.ts): the transactions run one after the other, each
 * BEGIN to COMMIT. With an idle connection a message goes at once, alone;
 * under load the messages that came while every connection was busy go
 * together, so the batches grow with the load and add no wait when there
 * is none.
 *
 * PostgreSQL stops a message at its first failed statement: the
 * transactions before it committed, the one it is in did not (its error
 * goes to its caller), and the ones after it did not run: they go again,
 * first in the queue, written anew for the connection that takes them.
 * Statements are counted as their results come (one CommandComplete each)
 * to tell which transaction failed.
 *
 * Each COMMIT of a write goes without waiting for the disk (NO_WAIT), and
 * the write ends with FLUSH, whose commit does wait, under the server's own
 * `synchronous_commit`, for the log up to it, and so past every commit
 * before it: one wait for the disk a write, not one a transaction, and no
 * caller answered before that wait is over (docs/storage.md, "Durability").
 * A write of read-only messages alone has nothing to wait for.
 */
import type pg from "pg";
import { runBound } from "./bound-statements.js";
import { writeControl, type PreparedStatements } from "./prepared-statements.js";
import { hasSqlState } from "./retry-policy.js";
import type { WholeMessage } from "./sql-database.js";
import type { Sql } from "./sql-statement.js";

/** Messages sent in one write at most: a bound on the wait of the last of them. */
const MAX_PER_WRITE = 32;

interface Waiting {
  compose: (prepared: PreparedStatements | undefined) => WholeMessage;
  resolve: (rows: unknown[][]) => void;
  reject: (error: unknown) => void;
}

/** What a sender needs of a pool: its connections, and each one's prepared statements. */
export interface WholeMessagesOptions {
  pool: pg.Pool;
  /** The statements a connection prepared (undefined: it prepares none). */
  preparedOf(client: pg.PoolClient): PreparedStatements | undefined;
}

/** The queue of whole messages of one pool (a class: one per database). */
export class WholeMessages {
  private readonly queue: Waiting[] = [];
  private senders = 0;
  private readonly maxSenders: number;
  /** Writes so far, and messages sent again behind a failed one. */
  writes = 0;
  resent = 0;

  constructor(private readonly options: WholeMessagesOptions) {
    // Senders waiting for or holding a connection: as many as the pool has.
    this.maxSenders = options.pool.options.max ?? 10;
  }

  /** Runs one whole message: its statements' rows, or the error of the one that failed. */
  send<Row>(compose: (prepared: PreparedStatements | undefined) => WholeMessage): Promise<Row[][]> {
    return new Promise<Row[][]>((resolve, reject) => {
      this.queue.push({ compose, resolve: resolve as (rows: unknown[][]) => void, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.senders < Math.min(this.maxSenders, this.queue.length)) {
      this.senders++;
      void this.sendSome().finally(() => {
        this.senders--;
        this.pump();
      });
    }
  }

  /** Takes a connection, then what is queued, and sends it; gives the connection back. */
  private async sendSome(): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.options.pool.connect();
    } catch (error) {
      // No connection to be had (the database is down): what waits fails, as a session's first query would.
      for (const waiting of this.queue.splice(0)) waiting.reject(error);
      return;
    }
    let broken: Error | undefined;
    try {
      const taken = this.queue.splice(0, MAX_PER_WRITE);
      if (taken.length === 0) return;
      broken = await this.run(client, taken);
    } finally {
      client.release(broken);
    }
  }

  /** Sends `taken` in one write on `client`; answers the connection's own error, if one came (the client is then not reused). */
  private async run(client: pg.PoolClient, taken: Waiting[]): Promise<Error | undefined> {
    const prepared = this.options.preparedOf(client);
    /** The messages that go, and their callers (one that could not be written fails alone, sent nothing). */
    const messages: WholeMessage[] = [];
    const sent: Waiting[] = [];
    const statements: Sql[] = [];
    for (const waiting of taken) {
      let message: WholeMessage;
      try {
        message = waiting.compose(prepared);
      } catch (error) {
        waiting.reject(error);
        continue;
      }
      messages.push(message);
      sent.push(waiting);
      const commit = message.statements.length - 1;
      for (let i = 0; i < commit; i++) statements.push(message.statements[i]!);
      // Written before the next message is: a name it prepares comes before any DEALLOCATE ALL of theirs. (A statement
      // of no parameters never sets one off: prepared-statements.ts.)
      writeControl(statements, NO_WAIT, prepared, message.fresh);
      statements.push(message.statements[commit]!);
    }
    if (sent.length === 0) return undefined;
    // Last in the write: prepared here (after every message's statements), it cannot come before a DEALLOCATE ALL of theirs.
    const fresh: string[] = [];
    if (messages.some((message) => !message.readOnly)) writeControl(statements, FLUSH, prepared, fresh);
    this.writes++;
    const { results, error } = await runBound(client, statements);
    if (results.length < statements.length) prepared?.forget(fresh);
    // Every commit is durable once the write's last statement (FLUSH) completed; else once the commits are flushed here.
    // The connection's own error (no SQLSTATE): what completed may not be durable, what had not may have run or not.
    const lost = results.length < statements.length && !hasSqlState(error);
    let unsure: unknown = lost ? error : undefined;
    let broken: Error | undefined = lost ? error as Error : undefined;
    if (results.length < statements.length && !lost) {
      // The failed transaction is left open, aborted: ended here, before the connection serves another session.
      await client.query(`ROLLBACK; ${FLUSH}`).catch((thrown: unknown) => {
        unsure = thrown;
        if (!hasSqlState(thrown)) broken = thrown as Error;
      });
    }
    const again: Waiting[] = [];
    let at = 0;
    for (const [i, waiting] of sent.entries()) {
      const count = messages[i]!.statements.length + 1;
      if (at + count <= results.length) {
        // Committed: answered without its NO_WAIT, once known durable.
        if (unsure === undefined) waiting.resolve([...results.slice(at, at + count - 2), results[at + count - 1]!]);
        else waiting.reject(unsure);
      } else if (at <= results.length || lost) {
        prepared?.failed(error, messages[i]!.fresh);
        waiting.reject(error);
      } else {
        // Behind a statement that failed: it did not run.
        prepared?.failed(undefined, messages[i]!.fresh);
        again.push(waiting);
      }
      at += count;
    }
    this.resent += again.length;
    this.queue.unshift(...again);
    return broken;
  }
}

/**
 * Before each transaction's COMMIT: its commit does not wait for the write-ahead log to reach the disk. None is
 * answered before the write's last statement, FLUSH, has completed.
 */
export const NO_WAIT = "SET LOCAL synchronous_commit = off";
/**
 * The write's last statement, a transaction of its own: it writes a record to the log (a logical decoding message,
 * which nothing reads, in the transaction: it gets an id), so its commit waits for the disk (a transaction that wrote
 * no record of its own, as `SELECT txid_current()`, commits without waiting: `RecordTransactionCommit` in xact.c).
 */
export const FLUSH = "SELECT pg_logical_emit_message(true, 'playfield', '')";

/*
 * Transactions that are whole (`BEGIN; …; COMMIT`, nothing to wait for in
 * between), of many callers, sent together on one pipelined connection
 * (pg-queries.ts). Each exchange of Node with PostgreSQL costs both sides
 * more than the short statements in it (a socket write, a wake-up of the
 * other process, a read), and each commit that waits for the disk costs a
 * flush of the write-ahead log.
 *
 * Transactions wait in a queue; a sender takes a connection from the pool,
 * then everything queued (up to MAX_PER_GROUP), and sends it: the
 * transactions run one after the other, each BEGIN to COMMIT. With an idle
 * connection a transaction goes at once, alone; under load the ones that
 * came while every connection was busy go together, so groups grow with
 * the load and add no wait when there is none. A transaction that fails
 * fails alone: the ones after it run all the same.
 *
 * Each COMMIT of a group goes without waiting for the disk (NO_WAIT), and
 * the group ends with FLUSH, whose commit does wait, under the server's own
 * `synchronous_commit`, for the log up to it, and so past every commit
 * before it: one wait for the disk a group, and no caller answered before
 * that wait is over (docs/storage.md, "Durability"). A group of read-only
 * transactions has nothing to wait for.
 */
import type pg from "pg";
import { firstFailure, inOneWrite, retire, runAll } from "./pg-queries.js";
import { hasSqlState, isLostStatement } from "./retry-policy.js";
import type { Sql, WholeMessage } from "./sql-database.js";

/** Transactions sent in one group at most: a bound on the wait of the last of them. */
const MAX_PER_GROUP = 32;

interface Waiting {
  message: WholeMessage;
  resolve: (rows: unknown[][]) => void;
  reject: (error: unknown) => void;
}

/** The queue of whole transactions of one pool (a class: one per database). */
export class GroupedCommits {
  private readonly queue: Waiting[] = [];
  private senders = 0;
  private readonly maxSenders: number;
  /** Groups sent so far. */
  groups = 0;

  /** `prepare`: statements go by name (pg-queries.ts). */
  constructor(private readonly pool: pg.Pool, private readonly prepare: boolean) {
    // Senders waiting for or holding a connection: as many as the pool has.
    this.maxSenders = pool.options.max ?? 10;
  }

  /** Runs one whole transaction: its statements' rows, or the error of the one that failed. */
  send<Row>(message: WholeMessage): Promise<Row[][]> {
    return new Promise<Row[][]>((resolve, reject) => {
      this.queue.push({ message, resolve: resolve as (rows: unknown[][]) => void, reject });
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
      client = await this.pool.connect();
    } catch (error) {
      // No connection to be had (the database is down): what waits fails, as a session's first query would.
      for (const waiting of this.queue.splice(0)) waiting.reject(error);
      return;
    }
    let failed: unknown;
    try {
      const taken = this.queue.splice(0, MAX_PER_GROUP);
      if (taken.length > 0) failed = await this.run(client, taken);
    } finally {
      client.release(retire(client, failed));
    }
  }

  /** Sends `taken` together on `client`, answers each caller; answers the error the connection met, if any. */
  private async run(client: pg.PoolClient, taken: readonly Waiting[]): Promise<unknown> {
    this.groups++;
    // All in one write, before any answer comes: FLUSH last, after every COMMIT.
    const [runs, flushed] = inOneWrite(client, () => [
      taken.map(({ message }) => runAll(client, message.readOnly ? message.statements : withNoWait(message.statements), this.prepare)),
      taken.every(({ message }) => message.readOnly) ? undefined : runAll(client, [FLUSH], false),
    ] as const);
    const outcomes = await Promise.all(runs);
    const flush = flushed === undefined ? undefined : firstFailure(await flushed);
    let lost: unknown;
    for (const [i, waiting] of taken.entries()) {
      const error = firstFailure(outcomes[i]!);
      if (error !== undefined && !hasSqlState(error)) lost ??= error;
      // Committed, but not known durable when FLUSH failed: the caller must not count on it.
      if (error !== undefined || flush !== undefined) {
        waiting.reject(error ?? flush);
        continue;
      }
      const rows = outcomes[i]!.map((outcome) => (outcome as PromiseFulfilledResult<pg.QueryResult>).value.rows);
      if (!waiting.message.readOnly) rows.splice(-2, 1);
      waiting.resolve(rows);
    }
    return lost ?? flush ?? outcomes.map(firstFailure).find(isLostStatement);
  }
}

/** `statements` with NO_WAIT before their last one, the COMMIT. */
function withNoWait(statements: readonly Sql[]): Sql[] {
  return [...statements.slice(0, -1), NO_WAIT, statements.at(-1)!];
}

/**
 * Before each transaction's COMMIT: its commit does not wait for the write-ahead log to reach the disk. None is
 * answered before the group's last statement, FLUSH, has completed.
 */
export const NO_WAIT: Sql = { text: "SET LOCAL synchronous_commit = off", params: [] };
/**
 * The group's last statement, a transaction of its own: it writes a record to the log (a logical decoding message,
 * which nothing reads, in the transaction: it gets an id), so its commit waits for the disk (a transaction that wrote
 * no record of its own, as `SELECT txid_current()`, commits without waiting: `RecordTransactionCommit` in xact.c).
 */
export const FLUSH: Sql = { text: "SELECT pg_logical_emit_message(true, 'playfield', '')", params: [] };

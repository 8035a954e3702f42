/*
 * A transaction's statements on its session, in as few round trips as the
 * answers allow. Each round trip costs the server far more than the short
 * statements in it (a socket write that wakes the database, a read, the
 * driver's parsing and a turn of the event loop), so:
 *
 * - statements asked for in the same turn (a `Promise.all` of reads) go
 *   together as one simple query, their parameters written in as literals;
 * - BEGIN travels with the first message;
 * - a write whose answer nothing waits for (a put to a table without unique
 *   or counted indexes) waits for the next message or for COMMIT;
 * - a read-only transaction sends its first message as `BEGIN …; reads;
 *   COMMIT`: one round trip for a transaction that reads once (most do). If
 *   its function then asks for more, this run is given up and the
 *   transaction runs again with BEGIN and COMMIT of their own.
 *
 * A message that fails fails every statement in it: the database aborts the
 * transaction at the first failed statement, so nothing after it counts.
 */
import { inlineParams } from "./sql-literal.js";
import type { SqlSession } from "./sql-database.js";

/** Thrown when a read-only transaction, already committed with its first reads, asks for more: it runs again in full. */
export class ReadsAfterCommit extends Error {
  override name = "ReadsAfterCommit";
  constructor() {
    super("the read-only transaction read again after its first reads: it will run again in a transaction of its own");
  }
}

interface Statement {
  text: string;
  params: readonly unknown[];
  /** Absent for a deferred write: nothing waits for its rows. */
  answer?: { resolve: (rows: never[]) => void; reject: (error: unknown) => void };
}

export interface PipelineOptions {
  /** The BEGIN statement (isolation level, read only). */
  begin: string;
  /** Commit with the first message (a read-only transaction that expects to read once). */
  commitFirst: boolean;
}

export type Pipeline = ReturnType<typeof createPipeline>;

export function createPipeline(session: SqlSession, options: PipelineOptions) {
  let pending: Statement[] = [];
  let pumping: Promise<void> | null = null;
  // sealed: a message carrying COMMIT went out, so no statement may follow; closed: the function is done.
  const state = { begun: false, sealed: false, committed: false, closed: false, failure: undefined as unknown };

  const fail = (error: unknown) => {
    state.failure ??= error;
  };

  /** Sends `batch` (and COMMIT when asked) as one message; settles its statements; throws only what a COMMIT in it met. */
  async function send(batch: readonly Statement[], commit: boolean): Promise<void> {
    const first = !state.begun;
    const commitToo = commit || (first && options.commitFirst);
    const texts = batch.map((statement) => statement.text);
    let results: unknown[][];
    try {
      if (state.failure !== undefined) throw state.failure;
      state.begun = true;
      if (commitToo) state.sealed = true;
      if (!first && !commitToo && batch.length === 1) {
        // One statement alone: bound parameters, no literals to write.
        results = [await session.query(batch[0]!.text, batch[0]!.params)];
      } else {
        const inlined = batch.map((statement, i) => (statement.params.length === 0 ? texts[i]! : inlineParams(texts[i]!, statement.params)));
        const all = [...(first ? [options.begin] : []), ...inlined, ...(commitToo ? ["COMMIT"] : [])];
        results = (await session.batch(all)).slice(first ? 1 : 0);
      }
    } catch (error) {
      fail(error);
      for (const statement of batch) statement.answer?.reject(error);
      if (commit) throw error;
      return;
    }
    if (commitToo) state.committed = true;
    batch.forEach((statement, i) => statement.answer?.resolve((results[i] ?? []) as never[]));
  }

  const waiting = () => pending.some((statement) => statement.answer !== undefined);

  /** Sends what waits, message after message, until nothing waits for an answer. */
  async function pump(): Promise<void> {
    while (waiting() && !state.closed) {
      const batch = pending;
      pending = [];
      await send(batch, false);
    }
  }

  /** Sends what is pending after this turn, once the message in flight (if any) is answered. */
  function schedule(): void {
    // A microtask: statements asked for in the same turn all get in.
    pumping ??= Promise.resolve().then(pump).finally(() => {
      pumping = null;
      if (waiting() && !state.closed) schedule();
    });
  }

  async function settled(): Promise<void> {
    while (pumping !== null) await pumping;
  }

  function push(statement: Statement): void {
    if (state.sealed) {
      const error = new ReadsAfterCommit();
      fail(error);
      throw error;
    }
    pending.push(statement);
  }

  return {
    /** Runs `text` in order with the others and answers its rows. */
    run<Row>(text: string, params: readonly unknown[]): Promise<Row[]> {
      return new Promise<Row[]>((resolve, reject) => {
        push({ text, params, answer: { resolve: resolve as (rows: never[]) => void, reject } });
        schedule();
      });
    },
    /** Queues a write nothing waits for: it goes with the next message, or with COMMIT. */
    defer(text: string, params: readonly unknown[]): void {
      push({ text, params });
    },
    /** Sends what is left and COMMIT (nothing when no statement was asked for, or the first message committed). */
    async commit(): Promise<void> {
      state.closed = true;
      await settled();
      if (state.failure !== undefined) throw state.failure;
      if (state.sealed || (!state.begun && pending.length === 0)) return;
      const batch = pending;
      pending = [];
      await send(batch, true);
    },
    /** Drops what is pending and rolls back what the database began. */
    async rollback(): Promise<void> {
      state.closed = true;
      await settled();
      for (const statement of pending) statement.answer?.reject(new Error("the transaction was rolled back"));
      pending = [];
      // After a failed COMMIT there is no transaction left, and a broken connection cannot answer: neither matters here.
      if (state.begun && !state.committed) await session.query("ROLLBACK").catch(() => undefined);
    },
    /** The first failure of a message (after which the database refuses the rest). */
    get failure(): unknown {
      return state.failure;
    },
    /** Records a failure met before any SQL (a table being set up): it decides the run's outcome. */
    fail,
  };
}

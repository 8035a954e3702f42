/*
 * A transaction's statements on its session, in as few round trips as the
 * answers allow. Each round trip costs the server far more than the short
 * statements in it (a socket write that wakes the database, a read, the
 * driver's parsing and a turn of the event loop), so:
 *
 * - statements asked for in the same turn (a `Promise.all` of reads) go
 *   together as one message (sent at once, answered together: the driver
 *   pipelines them, pg-queries.ts);
 * - BEGIN travels with the first message;
 * - a write whose answer nothing waits for (a put to a table without unique
 *   or counted indexes) waits for the next message or for COMMIT, and so
 *   does the check of a copy a writing transaction took instead of a read;
 * - a read-only transaction sends its first message as `BEGIN …; reads;
 *   COMMIT`: one round trip for a transaction that reads once (most do). If
 *   its function then asks for more, this run is given up and the
 *   transaction runs again with BEGIN and COMMIT of their own;
 * - reads asked for before the transaction (`transactAfterReads`) go first
 *   in the first message, in a read-only transaction of their own:
 *   `BEGIN … READ ONLY; reads; COMMIT; BEGIN …; statements`;
 * - a connection is taken only when a message must go, and kept to the end;
 *   a transaction that is one message whole (`BEGIN; …; COMMIT`, as a call
 *   whose reads all found copies makes) takes none of its own: where the
 *   database can (`SqlDatabase.whole`), it goes together with other such
 *   transactions (grouped-commits.ts).
 *
 * A message that fails fails every statement in it: the database aborts the
 * transaction at the first failed statement, so nothing after it counts.
 */
import { isCheckFailed } from "./retry-policy.js";
import { HeldSession, type Sql, type SqlDatabase } from "./sql-database.js";

/** Thrown when a read-only transaction, already committed with its first reads, asks for more: it runs again in full. */
export class ReadsAfterCommit extends Error {
  override name = "ReadsAfterCommit";
  constructor() {
    super("the read-only transaction read again after its first reads: it will run again in a transaction of its own");
  }
}

/** A copy a writing transaction took was not the row any more (its check divided by zero): it runs again, reading. */
export class StaleCopy extends Error {
  override name = "StaleCopy";
  constructor(cause: unknown) {
    super("a copy of a row the transaction took has changed: it will run again", { cause });
  }
}

export interface Statement extends Sql {
  /** The check of a copy (`check`): a division by zero in its message means a stale copy. */
  check?: boolean;
  /** Absent for a deferred write: nothing waits for its rows. */
  answer?: { resolve: (rows: never[]) => void; reject: (error: unknown) => void };
}

export interface PipelineOptions {
  /** The BEGIN statement (isolation level, read only). */
  begin: string;
  /** The transaction writes nothing (its BEGIN says READ ONLY): its whole message waits for no disk. */
  readOnly: boolean;
  /** Commit with the first message (a read-only transaction that expects to read once). */
  commitFirst: boolean;
  /** The BEGIN of the read-only transaction of the reads before this one (`runBefore`). */
  beginBefore?: string;
}

/**
 * A class rather than closures: a transaction makes one, and one object
 * costs less than a dozen functions made for each transaction.
 */
export class Pipeline {
  private pending: Statement[] = [];
  /** Reads of the read-only transaction that goes before this one, in the first message. */
  private before: Statement[] = [];
  private pumping: Promise<void> | null = null;
  private begun = false;
  /** A message carrying COMMIT went out: no statement may follow. */
  private sealed = false;
  private committed = false;
  /** The function is done: what waits goes with COMMIT, or is dropped on rollback. */
  private closed = false;
  /** The first failure of a message (after which the database refuses the rest), or one met before any SQL. */
  failure: unknown = undefined;

  /** The connection of this transaction, taken by the first message that is not the transaction whole. */
  private readonly session: HeldSession;

  constructor(private readonly database: SqlDatabase, private readonly options: PipelineOptions) {
    this.session = new HeldSession(database);
  }

  /** Records a failure that decides the run's outcome (a table being set up, met before any SQL). */
  fail(error: unknown): void {
    this.failure ??= error;
  }

  /**
   * Runs `text` in order with the others and answers its rows. `prepare`: false for a statement whose best plan
   * depends on its values (a range, an offset), which PostgreSQL would otherwise plan once for all values.
   */
  run<Row>(text: string, params: readonly unknown[], prepare = true): Promise<Row[]> {
    return new Promise<Row[]>((resolve, reject) => {
      this.push({ text, params, prepare, answer: { resolve: resolve as (rows: never[]) => void, reject } });
      this.schedule();
    });
  }

  /** Runs a read in the read-only transaction before this one: only until the first message goes. */
  runBefore<Row>(text: string, params: readonly unknown[], prepare = true): Promise<Row[]> {
    return new Promise<Row[]>((resolve, reject) => {
      if (this.begun || this.sealed) {
        const error = new Error("the reads before a transaction must all be asked for at once, before its first statement goes");
        this.fail(error);
        throw error;
      }
      this.before.push({ text, params, prepare, answer: { resolve: resolve as (rows: never[]) => void, reject } });
      this.schedule();
    });
  }

  /** Queues a write nothing waits for: it goes with the next message, or with COMMIT. */
  defer(text: string, params: readonly unknown[]): void {
    this.push({ text, params, prepare: true });
  }

  /** Queues the check of a copy, as `defer`: if it fails, the transaction fails with `StaleCopy`. Answers it, for `amend`. */
  check(text: string, params: readonly unknown[]): Statement {
    const statement: Statement = { text, params, prepare: true, check: true };
    this.push(statement);
    return statement;
  }

  /** Makes a check not sent yet another statement, in its place (a check and a write as one); false once it went. */
  amend(statement: Statement, text: string, params: readonly unknown[]): boolean {
    if (!this.pending.includes(statement)) return false;
    statement.text = text;
    statement.params = params;
    return true;
  }

  /** Sends what is left and COMMIT (nothing when no statement was asked for, or the first message committed). */
  async commit(): Promise<void> {
    this.closed = true;
    await this.settled();
    if (this.failure !== undefined) throw this.failure;
    if (this.sealed || (!this.begun && this.pending.length === 0 && this.before.length === 0)) return;
    // Reads before a writing transaction not sent yet: they go first, with its BEGIN (a failed read must not leave
    // a commit behind it: each statement is its own message, and the ones after a failure still run).
    if (!this.begun && this.before.length > 0 && !this.options.readOnly) await this.send([], false);
    const batch = this.pending;
    this.pending = [];
    await this.send(batch, true);
  }

  /** Drops what is pending and rolls back what the database began. */
  async rollback(): Promise<void> {
    this.closed = true;
    await this.settled();
    for (const statement of [...this.before, ...this.pending]) statement.answer?.reject(new Error("the transaction was rolled back"));
    this.pending = [];
    this.before = [];
    // After a failed COMMIT there is no transaction left, and a broken connection cannot answer: neither matters here.
    // (A whole transaction that failed left none open: its COMMIT ended it.)
    if (this.begun && !this.committed && this.session.taken) await (await this.session.get()).query("ROLLBACK").catch(() => undefined);
  }

  /** Takes the transaction's connection now, before its first message. */
  async hold(): Promise<void> {
    await this.session.get();
  }

  /** Gives the connection back, if the transaction took one: once it committed or rolled back. */
  release(): Promise<void> {
    return this.session.release();
  }

  private push(statement: Statement): void {
    if (this.sealed) {
      const error = new ReadsAfterCommit();
      this.fail(error);
      throw error;
    }
    this.pending.push(statement);
  }

  private waiting(): boolean {
    return this.before.length > 0 || this.pending.some((statement) => statement.answer !== undefined);
  }

  /** Sends what is pending after this turn (a microtask: statements asked for in the same turn all get in). */
  private schedule(): void {
    this.pumping ??= Promise.resolve().then(() => this.pump()).finally(() => {
      this.pumping = null;
      if (this.waiting() && !this.closed) this.schedule();
    });
  }

  /** Sends what waits, message after message, until nothing waits for an answer. */
  private async pump(): Promise<void> {
    while (this.waiting() && !this.closed) {
      const batch = this.pending;
      this.pending = [];
      await this.send(batch, false);
    }
  }

  private async settled(): Promise<void> {
    while (this.pumping !== null) await this.pumping;
  }

  /** Sends `batch` (and COMMIT when asked) as one message; settles its statements; throws only what a COMMIT in it met. */
  private async send(batch: readonly Statement[], commit: boolean): Promise<void> {
    const first = !this.begun;
    const commitToo = commit || (first && this.options.commitFirst);
    const before = first ? this.before : [];
    this.before = [];
    let results: unknown[][];
    /** Per statement of `before` then `batch`, the index of the result that answers it. */
    const answers: number[] = [];
    try {
      if (this.failure !== undefined) throw this.failure;
      this.begun = true;
      if (commitToo) this.sealed = true;
      const statements = this.compose(answers, before, batch, first, commitToo);
      if (first && commitToo && this.database.whole !== undefined) {
        results = await this.database.whole({ statements, readOnly: this.options.readOnly });
      } else {
        results = await (await this.session.get()).batch(statements);
      }
    } catch (thrown) {
      const error = isCheckFailed(thrown) && batch.some((statement) => statement.check) ? new StaleCopy(thrown) : thrown;
      this.fail(error);
      for (const statement of [...before, ...batch]) statement.answer?.reject(error);
      if (commit) throw error;
      return;
    }
    if (commitToo) this.committed = true;
    for (let i = 0; i < before.length; i++) before[i]!.answer?.resolve((results[answers[i]!] ?? []) as never[]);
    for (let i = 0; i < batch.length; i++) batch[i]!.answer?.resolve((results[answers[before.length + i]!] ?? []) as never[]);
  }

  /** The statements of `before` and `batch`, each one's index pushed to `answers`. */
  private compose(answers: number[], before: readonly Statement[], batch: readonly Statement[], first: boolean, commit: boolean): Sql[] {
    const statements: Sql[] = [];
    const add = (statement: Statement) => {
      answers.push(statements.length);
      statements.push(statement);
    };
    if (before.length > 0) {
      statements.push(control(this.options.beginBefore ?? "BEGIN READ ONLY"));
      before.forEach(add);
      statements.push(control("COMMIT"));
    }
    if (first) statements.push(control(this.options.begin));
    batch.forEach(add);
    if (commit) statements.push(control("COMMIT"));
    return statements;
  }
}

/** A statement of no parameters (BEGIN, COMMIT). */
function control(text: string): Sql {
  return { text, params: [] };
}

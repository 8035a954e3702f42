/*
 * A message's statements through PostgreSQL's extended protocol, in one
 * write: per statement a Parse (of a text, or of a statement the message
 * prepares by name), a Bind of its values, a Describe (only when its rows
 * are wanted) and an Execute; one Sync at the end (protocol-writer.ts
 * encodes them into one buffer). Against one simple query of
 * `EXECUTE name(literals)`, the database spends less per call: no EXECUTE
 * to parse, no literal to read (bench/probes/extended-protocol.ts).
 *
 * Like a simple query, the statements run in order until the first that
 * fails: the database skips the rest of the message, up to the Sync. Each
 * statement that completed answers its rows (none for one not described),
 * so that a caller knows how far it went (a node-postgres Submittable: its
 * Query answers nothing of a batch that failed).
 */
import pg from "pg";
import { ProtocolWriter } from "./protocol-writer.js";
import type { Sql } from "./sql-statement.js";

/** What a message answered: every completed statement's rows, and the error that stopped it, if any. */
export interface Answer {
  results: unknown[][];
  error: unknown;
}

/** Runs `statements` on `client` as one message: what completed, and the error that stopped it. */
export function runBound(client: pg.ClientBase, statements: readonly Sql[]): Promise<Answer> {
  return new Promise<Answer>((resolve) => {
    void client.query(new BoundStatements(statements, resolve));
  });
}

/** No columns: one array for every statement not described. */
const NONE: readonly never[] = [];

/** The Submittable of `runBound` (a class: one per message, its handlers called per protocol message). */
class BoundStatements implements pg.Submittable {
  private readonly results: unknown[][] = [];
  private rows: unknown[] = [];
  /** The described columns of the statement running (none: its rows are not read). */
  private names: readonly string[] = NONE;
  private parsers: readonly ((value: string) => unknown)[] = NONE;
  private error: unknown = undefined;
  private done = false;

  constructor(readonly statements: readonly Sql[], private readonly settle: (answer: Answer) => void) {}

  submit(connection: pg.Connection): void {
    const writer = new ProtocolWriter();
    for (const sql of this.statements) {
      if (typeof sql === "string") {
        writer.parse("", sql);
        writer.bind("", []);
      } else {
        if (sql.prepare) writer.parse(sql.name, sql.text);
        writer.bind(sql.name, sql.values);
      }
      if (typeof sql !== "string" && sql.rows) writer.describe();
      writer.execute();
    }
    writer.sync();
    // As node-postgres writes: nothing to a socket that is gone (its error fails this message).
    if (connection.stream.writable) connection.stream.write(writer.finish());
  }

  handleRowDescription(message: { fields: { name: string; dataTypeID: number }[] }): void {
    this.names = message.fields.map((field) => field.name);
    this.parsers = message.fields.map((field) => pg.types.getTypeParser(field.dataTypeID, "text"));
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    // A statement not described: nothing reads its rows.
    if (this.names.length === 0) return;
    const row: Record<string, unknown> = {};
    try {
      for (let i = 0; i < this.names.length; i++) {
        const value = message.fields[i];
        row[this.names[i]!] = value === null || value === undefined ? null : this.parsers[i]!(value);
      }
    } catch (error) {
      // Thrown in node-postgres's socket handler it would end the process: the message fails instead, as on a lost connection.
      this.handleError(error);
      return;
    }
    this.rows.push(row);
  }

  handleCommandComplete(): void {
    this.results.push(this.rows);
    this.rows = [];
    this.names = NONE;
    this.parsers = NONE;
  }

  handleEmptyQuery(): void {
    this.results.push([]);
  }

  // The last thing this message hears: node-postgres hands the ReadyForQuery after an error to no query (and a
  // connection's own error has none after it). The statements after the failed one did not run.
  handleError(error: unknown): void {
    this.error ??= error;
    this.finish();
  }

  handleReadyForQuery(): void {
    this.finish();
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.settle({ results: this.results, error: this.error });
  }
}

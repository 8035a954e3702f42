/*
 * A batch of statements on PGlite in one exchange: the messages of them all
 * (serialized by pg-protocol, node-postgres's own) handed to PGlite at once,
 * its answer read by pg-protocol's parser. PGlite's `query` makes several
 * exchanges with the WebAssembly PostgreSQL per statement (describe, then
 * bind and execute), each a full turn through it; one exchange a batch costs
 * a fraction of that. As node-postgres's pipeline mode sends them: a
 * statement with parameters goes as Parse (the first time, by a name: after
 * that only bound, as PGlite's one connection keeps it, parsed and planned
 * once), Bind, Describe, Execute, Sync (a failed one ends nothing but
 * itself), one without as a simple query (which may hold several
 * statements: the last one's rows answer).
 */
import { types, type PGlite } from "@electric-sql/pglite";
import { serialize } from "pg-protocol";
import type { BackendMessage, DataRowMessage, RowDescriptionMessage } from "pg-protocol/dist/messages.js";
import { Parser } from "pg-protocol/dist/parser.js";
import pgUtils from "pg/lib/utils.js";
import type { Sql } from "./sql-database.js";

const SYNC = serialize.sync();
const DESCRIBE = serialize.describe({ type: "P" });
const EXECUTE = serialize.execute();
/** Statements named per instance at most; any more go unnamed (parsed each time). */
const MAX_NAMED = 1000;

/** Per instance (its one connection): each named statement's name, once PostgreSQL parsed it. */
const namedOf = new WeakMap<PGlite, Map<string, string>>();

/** Each statement's rows, in order; the outcome of each, an error for one that failed. */
export async function runBatch(db: PGlite, statements: readonly Sql[]): Promise<(never[] | Error)[]> {
  let named = namedOf.get(db);
  if (named === undefined) namedOf.set(db, named = new Map());
  const parts: Buffer[] = [];
  /** Per statement, the name it parses under in this batch (its ParseComplete makes it known). */
  const parsing: (string | undefined)[] = [];
  const parsed = new Map<string, string>();
  for (const sql of statements) {
    parsing.push(undefined);
    if (sql.params.length === 0) {
      parts.push(serialize.query(sql.text));
      continue;
    }
    let name = named.get(sql.text) ?? parsed.get(sql.text);
    if (name === undefined && named.size < MAX_NAMED) {
      parsed.set(sql.text, name = `pf_${named.size + parsed.size}`);
      parts.push(serialize.parse({ name, text: sql.text }));
      parsing[parsing.length - 1] = name;
    } else if (name === undefined) parts.push(serialize.parse({ text: sql.text }));
    parts.push(serialize.bind({ statement: name, values: sql.params.map(pgUtils.prepareValue) }), DESCRIBE, EXECUTE, SYNC);
  }
  // As `query` does: an instance may still be starting.
  await db.waitReady;
  const answer = await db.execProtocolRaw(Buffer.concat(parts));
  const outcomes: (never[] | Error)[] = [];
  let fields: RowDescriptionMessage["fields"] = [];
  let rows: Record<string, unknown>[] = [];
  let last: never[] = [];
  let error: Error | undefined;
  new Parser().parse(Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength), (message: BackendMessage) => {
    switch (message.name) {
      case "rowDescription":
        fields = (message as RowDescriptionMessage).fields;
        rows = [];
        break;
      case "dataRow": {
        const values = (message as DataRowMessage).fields;
        const row: Record<string, unknown> = {};
        for (let i = 0; i < fields.length; i++) row[fields[i]!.name] = types.parseType(values[i] ?? null, fields[i]!.dataTypeID);
        rows.push(row);
        break;
      }
      case "commandComplete":
        last = rows as never[];
        rows = [];
        fields = [];
        break;
      case "error":
        error ??= message as unknown as Error;
        break;
      case "parseComplete": {
        const name = parsing[outcomes.length];
        if (name !== undefined) named.set(statements[outcomes.length]!.text, name);
        break;
      }
      case "readyForQuery":
        outcomes.push(error ?? last);
        last = [];
        error = undefined;
        break;
    }
  });
  return outcomes;
}

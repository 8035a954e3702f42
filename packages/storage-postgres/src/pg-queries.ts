/*
 * The adapter's statements as node-postgres query configs, on clients in
 * its pipeline mode (`pipeline: true`): a statement goes as soon as it is
 * asked for, without waiting for the answers of the ones before it, and
 * each one is its own extended-protocol message (Parse when new, Bind,
 * Describe, Execute, Sync), so a failed one ends nothing but itself (in a
 * transaction, PostgreSQL then refuses the rest until it ends).
 *
 * A statement with parameters goes by a name (node-postgres's named query
 * config): the driver parses it once per connection and binds it after
 * that, so PostgreSQL plans it once per connection (or per execution,
 * where it finds a custom plan better). A name holds a hash of its text,
 * so it never meets another statement's. A connection that holds more than
 * MAX_PREPARED is closed when given back (the pool opens a fresh one), and
 * so is one whose statements the server lost (a pooler in between).
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import { hasSqlState, isLostStatement } from "./retry-policy.js";
import type { Sql } from "./sql-database.js";

/** Statements a connection prepares before it is replaced. */
export const MAX_PREPARED = 256;

/** Parameters of the longest statement prepared: longer ones (a batch read's id list, each length its own text) go unnamed. */
const MAX_PREPARED_PARAMS = 32;

/** The names used on each connection (the driver keeps what it parsed; this counts it). */
const namesOf = new WeakMap<pg.ClientBase, Set<string>>();
/** Each text's name, made once. */
const nameOfText = new Map<string, string>();

/** `sql` as a query config for `client`: named when `prepare` (and it has parameters, not too many). */
export function pgQuery(client: pg.ClientBase, sql: Sql, prepare: boolean): pg.QueryConfig {
  const values = sql.params.map(toPgValue);
  if (!prepare || sql.prepare === false || sql.params.length === 0 || sql.params.length > MAX_PREPARED_PARAMS) return { text: sql.text, values };
  let name = nameOfText.get(sql.text);
  if (name === undefined) {
    if (nameOfText.size >= 10 * MAX_PREPARED) nameOfText.clear();
    nameOfText.set(sql.text, name = `pf_${createHash("sha1").update(sql.text).digest("base64url").slice(0, 22)}`);
  }
  let names = namesOf.get(client);
  if (names === undefined) namesOf.set(client, names = new Set());
  names.add(name);
  return { name, text: sql.text, values };
}

/**
 * Whether `client` must not be reused after `error` (undefined: none): the
 * connection's own error (no SQLSTATE), statements lost behind a pooler, or
 * too many prepared.
 */
export function retire(client: pg.ClientBase, error: unknown): Error | boolean {
  if (error !== undefined && !hasSqlState(error)) return error as Error;
  return isLostStatement(error) || (namesOf.get(client)?.size ?? 0) > MAX_PREPARED;
}

/** Runs `statements` on `client` together; answers each one's outcome, in order. */
export function runAll(client: pg.ClientBase, statements: readonly Sql[], prepare: boolean): Promise<PromiseSettledResult<pg.QueryResult>[]> {
  return inOneWrite(client, () => Promise.allSettled(statements.map((sql) => client.query(pgQuery(client, sql, prepare)))));
}

/**
 * Runs `send` (which queries `client`) with what the driver writes meanwhile gathered into one buffer, written once.
 * A pipelined client writes each message of each query (Parse, Bind, Describe, Execute, Sync) as a write of its own:
 * several queries asked for at once would otherwise be many writes each waking PostgreSQL, and a corked socket
 * hands them to one `writev` of hundreds of pieces, which costs Node more than the statements themselves.
 */
export function inOneWrite<T>(client: pg.ClientBase, send: () => T): T {
  const stream = (client as { connection?: { stream?: GatheredStream } }).connection?.stream;
  if (stream === undefined || stream.gathered !== undefined) return send();
  const chunks: Uint8Array[] = [];
  stream.gathered = chunks;
  stream.write = gather;
  try {
    return send();
  } finally {
    delete stream.write;
    stream.gathered = undefined;
    if (chunks.length > 0) stream.write!(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  }
}

/** The socket of a connection while `inOneWrite` gathers what is written to it. */
interface GatheredStream {
  gathered?: Uint8Array[] | undefined;
  write?(chunk: Uint8Array): boolean;
}

/** The socket's `write` while gathering: keeps the chunk (the driver writes buffers only). */
function gather(this: GatheredStream, chunk: Uint8Array): boolean {
  this.gathered!.push(chunk);
  return true;
}

/** The first failure of `outcomes`, if any: the statement that failed first (the ones after it failed for it). */
export function firstFailure(outcomes: readonly PromiseSettledResult<unknown>[]): unknown {
  for (const outcome of outcomes) if (outcome.status === "rejected") return outcome.reason ?? new Error("statement failed");
  return undefined;
}

/** node-postgres sends a Buffer as bytea; a plain Uint8Array becomes one without a copy. */
function toPgValue(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value;
}

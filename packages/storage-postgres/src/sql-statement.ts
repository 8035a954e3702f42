/*
 * One statement of a message, as a connection runs it: a text, or a
 * statement the connection prepared, by name, with its values. On
 * PostgreSQL a message's statements go through the extended protocol
 * (bound-statements.ts): a prepared statement's values travel as they are,
 * with no SQL literal to write or parse. Where a message must be one
 * simple query (PGlite), a prepared statement is written as
 * `EXECUTE name(literals)`, after `PREPARE name AS text` when the message
 * prepares it.
 */
import { inlineParams, literal } from "./sql-literal.js";

/** A value as the extended protocol binds it: text, bytes (in binary: bytea), or null. */
export type BindValue = string | Uint8Array | null;

/** A prepared statement run by name (prepared by this message first, when `prepare`; "" is the unnamed statement, prepared each time). */
export interface Bound {
  name: string;
  text: string;
  prepare: boolean;
  values: BindValue[];
  /** Whether its rows are wanted: a statement run for its effect alone (a write nothing waits for, a check, COMMIT) is not described, and its rows are dropped. */
  rows: boolean;
}

/**
 * One statement: a text run as it is, whose rows nothing reads (a BEGIN, a COMMIT), or a prepared one. On
 * PostgreSQL a text is not described: described, a `SET LOCAL` before COMMIT made serializable transactions in
 * one write fail each other far more often (bench/probes/extended-protocol.ts: ~700 failed writes in 4 s against
 * none).
 */
export type Sql = string | Bound;

/** Parameters one statement can bind (the protocol counts them in 16 bits): a longer list is written in. */
const MAX_BOUND = 65_535;

/**
 * `text` with `params` as the unnamed statement: parsed and planned each time, with its values (a plan made for
 * them, as for a statement whose best plan depends on its values), and its rows answered when `rows`.
 */
export function unnamed(text: string, params: readonly unknown[], rows: boolean): Bound {
  if (params.length > MAX_BOUND) return { name: "", text: inlineParams(text, params), prepare: true, values: [], rows };
  return { name: "", text, prepare: true, values: params.map(bindValue), rows };
}

/**
 * One value of a statement as the extended protocol binds it. Only the kinds the adapter binds are taken: bytes,
 * text, whole numbers, null. A text holding NUL is not looked for: PostgreSQL refuses it (22021), and the adapter
 * sends none (rows and notices are JSON, which writes NUL as an escape; keys go as bytes).
 */
export function bindValue(value: unknown): BindValue {
  if (typeof value === "string" || value instanceof Uint8Array) return value;
  if (value === null || value === undefined) return null;
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  throw new TypeError(`no SQL value for ${typeof value}`);
}

/**
 * `sql` as statements of a simple query: its text (its values written in, for the unnamed statement), or its EXECUTE
 * (after its PREPARE when it prepares). Its rows are the last one's. A prepared statement of no parameters goes as its text: SQL's PREPARE takes only a query (not a
 * BEGIN or a COMMIT), and such an EXECUTE would spare nothing.
 */
export function simpleTexts(sql: Sql): string[] {
  if (typeof sql === "string") return [sql];
  if (sql.name === "") return [inlineParams(sql.text, sql.values)];
  if (sql.values.length === 0) return [sql.text];
  let call = `EXECUTE ${sql.name}(`;
  for (let i = 0; i < sql.values.length; i++) call += (i === 0 ? "" : ", ") + literal(sql.values[i]);
  call += ")";
  return sql.prepare ? [`PREPARE ${sql.name} AS ${sql.text}`, call] : [call];
}

/*
 * A port query as SQL on one index column. `equals` and `range` become one
 * byte range [lower, upper) on the encoded keys, so a btree serves any
 * query (see key-encoding.ts for why each bound below is right):
 *
 *   equals P, no range   lower encodeKey(P)               upper encodeKey(P) ++ END_OF_PREFIX
 *   any range bound      lower encodeKey(P) ++ 0x00 (a key must go on past P to be bounded)
 *   gt v   lower encodeKey(P ++ v) ++ END_OF_PREFIX       gte v  lower encodeKey(P ++ v)
 *   lt v   upper encodeKey(P ++ v)                        lte v  upper encodeKey(P ++ v) ++ END_OF_PREFIX
 *
 * The tightest lower and upper bound are kept; an empty range needs no SQL.
 * On a counted index, a count and a page past a bucket's worth of entries
 * use the bucket counts instead (counted-index.ts).
 */
import type { CountQuery, IndexKey, KeyRange, Query } from "@playfield/core";
import { ABOVE_EVERY_KEY, countedCountSql, countedOf, countedPageSql, type BucketSizes } from "./counted-index.js";
import { encodeKey, encodePrefixEnd } from "./key-encoding.js";
import type { IndexLayout, TableLayout } from "./table-layout.js";

/** An SQL statement and its parameters. */
export interface Statement {
  text: string;
  params: unknown[];
  /** A count's cap still to apply to its answer (a count from bucket counts is exact, not capped). */
  cap?: number | undefined;
}

const EMPTY = new Uint8Array(0);

/** The select of a query's rows, or null when no row can match. */
export function selectSql(table: TableLayout, index: IndexLayout, query: Query, sizes: BucketSizes): Statement | null {
  const offset = checkCount("offset", query.offset) ?? 0;
  const limit = checkCount("limit", query.limit) ?? null;
  const bounds = boundsOf(query);
  if (bounds === null || limit === 0) return null;
  const desc = query.order === "desc";
  const counted = countedOf(table.sql, index);
  // Skipping fewer entries than a bucket holds is cheaper done by the database's own OFFSET.
  if (counted !== null && offset >= sizes.rows && query.after === undefined) {
    return { text: countedPageSql(counted, desc), params: [bounds.lower ?? EMPTY, bounds.upper ?? ABOVE_EVERY_KEY, offset, limit] };
  }
  const params: unknown[] = [];
  const where = whereOf(index, bounds, params);
  const column = index.column;
  if (query.after) {
    checkElements("cursor", query.after.key);
    if (typeof query.after.id !== "string") throw new TypeError("query cursor: id must be a string");
    params.push(encodeKey(query.after.key), encodeKey([query.after.id]));
    const k = `$${params.length - 1}::bytea`, id = `$${params.length}::bytea`;
    where.push(desc ? `${column} <= ${k} AND (${column}, id) < (${k}, ${id})` : `${column} >= ${k} AND (${column}, id) > (${k}, ${id})`);
  }
  const direction = desc ? " DESC" : "";
  // A unique index has no ties to break, and its btree holds the key alone.
  const order = index.unique ? `${column}${direction}` : `${column}${direction}, id${direction}`;
  params.push(limit, offset);
  return {
    text: `SELECT data FROM ${table.sql} WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT $${params.length - 1}::bigint OFFSET $${params.length}::bigint`,
    params,
  };
}

/** The count of a query's rows, or null when no row can match. */
export function countSql(table: TableLayout, index: IndexLayout, query: CountQuery, sizes: BucketSizes): Statement | null {
  const cap = checkCount("count cap", query.cap);
  const bounds = boundsOf(query);
  if (bounds === null || cap === 0) return null;
  const counted = countedOf(table.sql, index);
  // A cap under a bucket's worth is cheaper walked than counted from buckets.
  if (counted !== null && (cap === undefined || cap > sizes.rows)) {
    return { text: countedCountSql(counted), params: [bounds.lower ?? EMPTY, bounds.upper ?? ABOVE_EVERY_KEY], cap };
  }
  const params: unknown[] = [];
  const where = whereOf(index, bounds, params);
  const rows = `FROM ${table.sql} WHERE ${where.join(" AND ")}`;
  // With a cap, the database stops reading index entries once it has counted that many.
  if (cap === undefined) return { text: `SELECT count(*)::int AS n ${rows}`, params };
  params.push(cap);
  return { text: `SELECT count(*)::int AS n FROM (SELECT 1 ${rows} LIMIT $${params.length}::bigint) AS capped`, params };
}

/** The byte range of `equals` and `range` (null where unbounded), or null when it is empty. */
function boundsOf(query: Pick<Query, "equals" | "range">): { lower: Uint8Array | null; upper: Uint8Array | null } | null {
  const equals = query.equals ?? [];
  checkElements("equals", equals);
  const range: KeyRange = query.range ?? {};
  const { gt, gte, lt, lte } = range;
  checkElements("range", [gt, gte, lt, lte].filter((v) => v !== undefined));
  const bounded = gt !== undefined || gte !== undefined || lt !== undefined || lte !== undefined;

  const lowers: Uint8Array[] = [];
  const uppers: Uint8Array[] = [];
  if (bounded) lowers.push(withByte(encodeKey(equals), 0x00));
  else if (equals.length > 0) lowers.push(encodeKey(equals));
  if (equals.length > 0) uppers.push(encodePrefixEnd(equals));
  const at = (v: string | number): IndexKey => [...equals, v];
  if (gt !== undefined) lowers.push(encodePrefixEnd(at(gt)));
  if (gte !== undefined) lowers.push(encodeKey(at(gte)));
  if (lt !== undefined) uppers.push(encodeKey(at(lt)));
  if (lte !== undefined) uppers.push(encodePrefixEnd(at(lte)));
  const lower = lowers.reduce<Uint8Array | null>((max, b) => (max === null || Buffer.compare(b, max) > 0 ? b : max), null);
  const upper = uppers.reduce<Uint8Array | null>((min, b) => (min === null || Buffer.compare(b, min) < 0 ? b : min), null);
  if (lower !== null && upper !== null && Buffer.compare(lower, upper) >= 0) return null;
  return { lower, upper };
}

/** The conditions of a byte range on the index column (parameters pushed onto `params`). */
function whereOf(index: IndexLayout, { lower, upper }: { lower: Uint8Array | null; upper: Uint8Array | null }, params: unknown[]): string[] {
  const where: string[] = [];
  if (lower !== null) where.push(`${index.column} >= $${params.push(lower)}::bytea`);
  if (upper !== null) where.push(`${index.column} < $${params.push(upper)}::bytea`);
  if (where.length === 0) where.push(`${index.column} IS NOT NULL`);
  return where;
}

function withByte(bytes: Uint8Array, byte: number): Uint8Array {
  const out = new Uint8Array(bytes.length + 1);
  out.set(bytes);
  out[bytes.length] = byte;
  return out;
}

function checkElements(what: string, elements: readonly unknown[]): void {
  for (const element of elements) {
    if (typeof element === "string" || (typeof element === "number" && !Number.isNaN(element))) continue;
    throw new TypeError(`query ${what}: key elements must be strings or numbers, got ${String(element)}`);
  }
}

function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`query ${name} must be a whole number ≥ 0, got ${value}`);
  return value;
}

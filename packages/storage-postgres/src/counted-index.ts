/*
 * Counted indexes (`counted: true`): counts of consecutive key ranges kept
 * beside the index, so that `count` and a large `offset` read a few
 * thousand index entries and a list of bucket counts instead of walking
 * every row before the answer (SQL's count(*) and OFFSET do).
 *
 * The index's entries, in index order (key, then primary key), are cut into
 * buckets. A bucket is one row of `<table>_<column>_n`:
 *
 *   bk bytea, bid bytea   the (key, id) position where the bucket starts; the first starts at ('', '')
 *   n  integer            how many index entries lie between it and the next bucket's start
 *
 * An entry belongs to the bucket with the greatest start ≤ its (key, id).
 * Every write of the table moves the counts in the same statement and the
 * same transaction (so they are exactly as consistent as the rows): a put
 * that keeps its entry in the same bucket writes no count, one that enters,
 * leaves or changes bucket adds or takes 1. A bucket that grows past
 * 2 × bucketRows is split at its middle entry; one that shrinks below
 * bucketRows / 4 is merged into the one before.
 *
 * Entries in [L, U) = the counts of the buckets from L's to U's
 * − the entries of L's bucket below L + the entries of U's bucket below U:
 * a sum over (rows in range / bucketRows) buckets and two walks of at most
 * one bucket each. A page at offset o walks the buckets summing counts until
 * the one holding entry o, then skips fewer than one bucket of entries.
 */
import type { IndexLayout } from "./table-layout.js";

/** How large buckets grow and shrink. */
export interface BucketSizes {
  /** Entries per bucket when buckets are rebuilt; split past twice this, merged below a quarter. */
  rows: number;
}

/** Bucket rows for 1,000,000 entries: about 1,000 bucket counts to sum and at most 2,048 entries to walk. */
export const DEFAULT_BUCKET_ROWS = 1_024;

/** The start of the first bucket, below every (key, id). */
const FIRST = "''::bytea";
/** Above every encoded key: keys start with a tag below END_OF_PREFIX (0x03). */
export const ABOVE_EVERY_KEY = new Uint8Array([0x03]);

/** A counted index, with its table and counts table (schema-qualified and quoted). */
export interface CountedIndex {
  table: string;
  column: string;
  counts: string;
  unique: boolean;
}

export function countedOf(table: string, index: IndexLayout): CountedIndex | null {
  return index.counts === null ? null : { table, column: index.column, counts: index.counts, unique: index.unique };
}

/** The statements that make a counts table, with its first bucket. */
export function createCountsSql(counts: string): string[] {
  return [
    `CREATE TABLE ${counts} (bk bytea NOT NULL, bid bytea NOT NULL, n integer NOT NULL, PRIMARY KEY (bk, bid))`,
    `INSERT INTO ${counts} (bk, bid, n) VALUES (${FIRST}, ${FIRST}, 0)`,
  ];
}

/** Recounts every bucket from the index: buckets of `sizes.rows` entries. For migrations, restores and bulk loads. */
export function rebuildCountsSql(index: CountedIndex, sizes: BucketSizes): string[] {
  const { table, column, counts } = index;
  const rows = sizes.rows;
  return [
    `DELETE FROM ${counts}`,
    `INSERT INTO ${counts} (bk, bid, n)
      SELECT CASE WHEN r = 0 THEN ${FIRST} ELSE k END, CASE WHEN r = 0 THEN ${FIRST} ELSE id END, least(${rows}, total - r)::int
      FROM (SELECT ${column} AS k, id, row_number() OVER (ORDER BY ${column}, id) - 1 AS r, count(*) OVER () AS total FROM ${table} WHERE ${column} IS NOT NULL) AS s
      WHERE r % ${rows} = 0`,
    `INSERT INTO ${counts} (bk, bid, n) SELECT ${FIRST}, ${FIRST}, 0 WHERE NOT EXISTS (SELECT FROM ${counts})`,
  ];
}

/** Empties a counts table back to its one empty first bucket (as one CTE, for `clear`'s single statement). */
export function clearCountsCtes(counts: string, name: string): string[] {
  return [
    `${name}d AS (DELETE FROM ${counts} WHERE (bk, bid) > (${FIRST}, ${FIRST}))`,
    `${name}z AS (UPDATE ${counts} SET n = 0 WHERE bk = ${FIRST} AND bid = ${FIRST})`,
  ];
}

/** The bucket holding position (key, id), both SQL expressions. */
function bucketOf(counts: string, key: string, id: string): string {
  return `SELECT bk, bid FROM ${counts} WHERE (bk, bid) <= (${key}, ${id}) ORDER BY bk DESC, bid DESC LIMIT 1`;
}

/** Entries of the index from bucket start (bk, bid) up to key `below` (exclusive), all SQL expressions. */
function entriesFrom(index: CountedIndex, bk: string, bid: string, below: string): string {
  const { table, column } = index;
  return `SELECT count(*) FROM ${table} WHERE ${column} >= ${bk} AND (${column}, id) >= (${bk}, ${bid}) AND ${column} < ${below}`;
}

function order(index: CountedIndex, direction: "" | " DESC"): string {
  // A unique index's btree holds the key alone: ordering by id too would sort.
  return index.unique ? `${index.column}${direction}` : `${index.column}${direction}, id${direction}`;
}

/**
 * CTEs that move the counts of one counted index for a write of the row
 * with id `$1`: `before` is the key it had (an SQL expression over CTE
 * `old`, NULL when it had none), `after` the key it gets (NULL when none).
 * `written` must be a CTE that answers a row only if the write happened.
 * One UPDATE takes 1 from the old bucket and adds 1 to the new one, only
 * when they differ. Answers the CTEs and the columns that report a bucket
 * to split or merge.
 */
export function moveCountsSql(index: CountedIndex, j: number, sizes: BucketSizes, before: { from: string; key: string }, after: string | null): { ctes: string[]; columns: string[] } {
  const { counts } = index;
  const o = `o${j}`, nb = `n${j}`, m = `m${j}`;
  const moves = after === null
    ? `SELECT bk, bid, -1 AS delta FROM ${o}`
    : `SELECT bk, bid, -1 AS delta FROM ${o} WHERE NOT EXISTS (SELECT FROM ${nb} WHERE ${nb}.bk = ${o}.bk AND ${nb}.bid = ${o}.bid)
      UNION ALL SELECT bk, bid, 1 FROM ${nb} WHERE NOT EXISTS (SELECT FROM ${o} WHERE ${o}.bk = ${nb}.bk AND ${o}.bid = ${nb}.bid)`;
  const ctes = [
    ...(after === null ? [] : [`${nb} AS (${bucketOf(counts, after, "$1::bytea")})`]),
    `${o} AS (SELECT b.bk, b.bid FROM ${before.from} CROSS JOIN LATERAL (${bucketOf(counts, before.key, "$1::bytea")}) AS b)`,
    `${m} AS (UPDATE ${counts} AS c SET n = c.n + e.delta FROM (${moves}) AS e WHERE c.bk = e.bk AND c.bid = e.bid AND EXISTS (SELECT FROM written) RETURNING c.bk, c.bid, c.n, e.delta)`,
  ];
  const reported = (where: string) => `(SELECT encode(bk, 'hex') || ',' || encode(bid, 'hex') FROM ${m} WHERE ${where})`;
  const columns = [`${reported(`delta < 0 AND n < ${mergeBelow(sizes)} AND (bk, bid) > (${FIRST}, ${FIRST})`)} AS merge${j}`];
  if (after !== null) columns.push(`${reported(`delta > 0 AND n > ${splitAbove(sizes)}`)} AS split${j}`);
  return { ctes, columns };
}

const splitAbove = (sizes: BucketSizes) => 2 * sizes.rows;
const mergeBelow = (sizes: BucketSizes) => Math.max(1, Math.floor(sizes.rows / 4));

/** Splits bucket ($1, $2) at its middle entry, if it is still over the size. */
export function splitSql(index: CountedIndex, sizes: BucketSizes): string {
  const { table, column, counts } = index;
  return `WITH b AS (SELECT n FROM ${counts} WHERE bk = $1::bytea AND bid = $2::bytea AND n > ${splitAbove(sizes)}),
    m AS (SELECT ${column} AS k, id FROM ${table} WHERE EXISTS (SELECT FROM b) AND ${column} >= $1::bytea AND (${column}, id) >= ($1::bytea, $2::bytea) ORDER BY ${order(index, "")} OFFSET (SELECT n / 2 FROM b) LIMIT 1),
    ins AS (INSERT INTO ${counts} (bk, bid, n) SELECT m.k, m.id, b.n - b.n / 2 FROM m, b)
    UPDATE ${counts} AS c SET n = b.n / 2 FROM b, m WHERE c.bk = $1::bytea AND c.bid = $2::bytea`;
}

/** Merges bucket ($1, $2) into the one before it, if it is still under the size (never the first bucket). */
export function mergeSql(index: CountedIndex, sizes: BucketSizes): string {
  const { counts } = index;
  return `WITH gone AS (DELETE FROM ${counts} WHERE bk = $1::bytea AND bid = $2::bytea AND n < ${mergeBelow(sizes)} AND (bk, bid) > (${FIRST}, ${FIRST}) RETURNING n),
    prev AS (SELECT bk, bid FROM ${counts} WHERE (bk, bid) < ($1::bytea, $2::bytea) ORDER BY bk DESC, bid DESC LIMIT 1)
    UPDATE ${counts} AS c SET n = c.n + gone.n FROM gone, prev WHERE c.bk = prev.bk AND c.bid = prev.bid`;
}

/**
 * The entries with keys in [$1, $2) (both bytea), as `n`. Every walk of
 * index entries is bounded by a bucket's start, in the SQL as well, so that
 * the planner expects a bucket's worth of entries and never a scan of the
 * range (nor a plan costly enough to be compiled: PostgreSQL's JIT).
 */
export function countedCountSql(index: CountedIndex): string {
  const { table, column, counts } = index;
  return `WITH bl AS (${bucketOf(counts, "$1::bytea", FIRST)}), bu AS (${bucketOf(counts, "$2::bytea", FIRST)})
    SELECT (CASE WHEN bl.bk = bu.bk AND bl.bid = bu.bid
      THEN (${entriesFrom(index, "bl.bk", "bl.bid", "$2::bytea")} AND ${column} >= $1::bytea)
      ELSE (SELECT coalesce(sum(n), 0) FROM ${counts} WHERE (bk, bid) >= (bl.bk, bl.bid) AND (bk, bid) < (bu.bk, bu.bid))
        - (${entriesFrom(index, "bl.bk", "bl.bid", "$1::bytea")})
        + (${entriesFrom(index, "bu.bk", "bu.bid", "$2::bytea")})
      END)::int AS n FROM bl, bu`;
}

/**
 * A page of the entries with keys in [$1, $2), ascending or descending,
 * skipping $3 entries, at most $4 (NULL: all): the buckets' counts find
 * the bucket holding entry $3 (a running sum over the bucket rows in
 * range); its position is found by skipping fewer than one bucket of
 * entries in the index alone (no row read for the entries skipped), and
 * the page read from there. Each count of entries is a scalar subquery that
 * does not depend on the bucket walk, so that it runs once, not per bucket.
 */
export function countedPageSql(index: CountedIndex, desc: boolean): string {
  const { table, column, counts } = index;
  if (!desc) {
    // Entry $3 of the range is entry t of the index counted from L's bucket start.
    return `WITH bl AS (${bucketOf(counts, "$1::bytea", FIRST)}),
      target AS (SELECT (${entriesFrom(index, "bl.bk", "bl.bid", "$1::bytea")}) + $3::bigint AS t FROM bl),
      walk AS (SELECT bk, bid, sum(n) OVER (ORDER BY bk, bid) - n AS before FROM ${counts}
        WHERE (bk, bid) >= ((SELECT bk FROM bl), (SELECT bid FROM bl)) AND bk < $2::bytea),
      start AS (SELECT bk, bid, (SELECT t FROM target) - before AS skip FROM walk WHERE before <= (SELECT t FROM target) ORDER BY bk DESC, bid DESC LIMIT 1),
      pos AS (${positionSql(index)}
        WHERE ${column} >= (SELECT bk FROM start) AND (${column}, id) >= ((SELECT bk FROM start), (SELECT bid FROM start)) AND ${column} < $2::bytea
        ORDER BY ${order(index, "")} OFFSET (SELECT skip FROM start) LIMIT 1)
      SELECT data FROM ${table} WHERE ${fromPosition(index, ">=")} AND ${column} < $2::bytea ORDER BY ${order(index, "")} LIMIT $4::bigint`;
  }
  // Descending: U's bucket counts only its entries below U; each bucket ends where the one above it starts (U for U's own).
  return `WITH bl AS (${bucketOf(counts, "$1::bytea", FIRST)}), bu AS (${bucketOf(counts, "$2::bytea", FIRST)}),
    top AS (SELECT (${entriesFrom(index, "bu.bk", "bu.bid", "$2::bytea")}) AS c FROM bu),
    walk AS (SELECT bk, bid, n, coalesce(lag(bk) OVER w, $2::bytea) AS ubk, coalesce(lag(bid) OVER w, ${FIRST}) AS ubid, sum(n) OVER w AS upto
      FROM (SELECT bk, bid, CASE WHEN bk = (SELECT bk FROM bu) AND bid = (SELECT bid FROM bu) THEN (SELECT c FROM top) ELSE n END AS n FROM ${counts}
        WHERE (bk, bid) >= ((SELECT bk FROM bl), (SELECT bid FROM bl)) AND (bk, bid) <= ((SELECT bk FROM bu), (SELECT bid FROM bu))) AS sized
      WINDOW w AS (ORDER BY bk DESC, bid DESC)),
    start AS (SELECT ubk, ubid, $3::bigint - (upto - n) AS skip FROM walk WHERE upto > $3::bigint ORDER BY bk DESC, bid DESC LIMIT 1),
    pos AS (${positionSql(index)}
      WHERE ${column} <= (SELECT ubk FROM start) AND (${column}, id) < ((SELECT ubk FROM start), (SELECT ubid FROM start)) AND ${column} >= $1::bytea
      ORDER BY ${order(index, " DESC")} OFFSET (SELECT skip FROM start) LIMIT 1)
    SELECT data FROM ${table} WHERE ${fromPosition(index, "<=")} AND ${column} >= $1::bytea ORDER BY ${order(index, " DESC")} LIMIT $4::bigint`;
}

/** The select of an entry's position, read from the index alone (a unique index holds the key only: the key is the position). */
function positionSql(index: CountedIndex): string {
  return `SELECT ${index.column} AS k${index.unique ? "" : ", id"} FROM ${index.table}`;
}

/** Entries at or after (`>=`) or at or before (`<=`) the position in CTE `pos`; none when there is no position. */
function fromPosition(index: CountedIndex, op: ">=" | "<="): string {
  const { column } = index;
  const k = "(SELECT k FROM pos)";
  return index.unique ? `${column} ${op} ${k}` : `${column} ${op} ${k} AND (${column}, id) ${op} (${k}, (SELECT id FROM pos))`;
}

/** "bk,bid" in hex (as the write statements report a bucket) back to bytes. */
export function bucketBounds(reported: string): [Uint8Array, Uint8Array] {
  const [bk, bid] = reported.split(",") as [string, string];
  return [Buffer.from(bk, "hex"), Buffer.from(bid, "hex")];
}

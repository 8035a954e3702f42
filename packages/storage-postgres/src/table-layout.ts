/*
 * How a declared table lies in PostgreSQL: one SQL table per declared table,
 *
 *   id   bytea PRIMARY KEY   encodeKey([primary key]): ids sort as strings do in JavaScript
 *   data text NOT NULL       the row (row-codec.ts)
 *   k1…  bytea               encodeKey(the row's key) per declared index, NULL when left out of it
 *
 * with one btree per declared index on (kN, id) (unique: on kN alone, a
 * unique index), and for a counted index a table of bucket counts,
 * `<table>_kN_n` (counted-index.ts). Columns are numbered, not named after
 * indexes: an index keeps its column while others come and go, and any
 * index name works.
 */
import { PRIMARY_INDEX, type IndexKey, type TableDef } from "@playfield/core";
import { countedOf, moveCountsSql, type BucketSizes, type CountedIndex } from "./counted-index.js";
import { encodeKey } from "./key-encoding.js";

/** What the database records of a table's indexes (in `_playfield_tables`), by index name. */
export interface StoredLayout {
  indexes: Record<string, StoredIndex>;
  /** The number of the next column to add. */
  next: number;
}

export interface StoredIndex {
  column: string;
  unique: boolean;
  version: number;
  /** Present (true) only on counted indexes, so that layouts recorded before counts existed read the same. */
  counted?: true;
}

/** One index as the adapter uses it: its column, and how to compute a row's key. */
export interface IndexLayout {
  name: string;
  column: string;
  unique: boolean;
  key: (row: unknown) => IndexKey | null;
  /** The counts table of a counted index (schema-qualified, quoted); null when the index is not counted. */
  counts: string | null;
}

/** A row's key in an index, checked, and its bytes; null when the row is left out of the index. */
export function encodedKeyOf(table: string, index: IndexLayout, row: unknown): { key: IndexKey; bytes: Uint8Array } | null {
  const key = index.key(row);
  if (key === null) return null;
  for (const element of key) {
    if (typeof element === "string" || (typeof element === "number" && !Number.isNaN(element))) continue;
    throw new TypeError(`index ${table}.${index.name}: key elements must be strings or numbers, got ${String(element)}`);
  }
  return { key, bytes: encodeKey(key) };
}

/** A table as the adapter uses it. */
export interface TableLayout {
  def: TableDef<unknown>;
  /** The schema-qualified, quoted table name. */
  sql: string;
  /** The declared indexes, in declaration order (the order a put checks unique keys in). */
  indexes: readonly IndexLayout[];
  /** Every queryable index by name, the primary key (`"primary"`, column `id`) included. */
  byName: ReadonlyMap<string, IndexLayout>;
  /** The upsert of a row, checking unique keys first and moving counts (see `putSql`). */
  put: string;
  /**
   * The upsert alone, for a put that cannot clash (each unique key null, or looked up and found free) on a table
   * without counted indexes: `put` less its check, which would find nothing.
   */
  putUnchecked: string;
  /** The delete of a row by id, moving counts (see `deleteSql`). */
  delete: string;
  /**
   * A copy checked in a writing transaction (sql-storage.ts): fails the transaction unless row $1 holds exactly $2,
   * by a division by zero (SQLSTATE 22012, which no other statement of the adapter can raise: tx-pipeline.ts).
   */
  check: string;
  /** The same for a copy of a row's absence: fails unless there is no row $1. */
  checkAbsent: string;
  /**
   * A check and the write of the same row as one statement: row $1 takes $3 (and its index keys $4…) only if it holds
   * exactly $2, else the division by zero fails the transaction as the check's would. For a table without counted
   * indexes, a row the transaction took a copy of and then wrote with nothing between waiting for an answer.
   */
  checkedUpdate: string;
  /** The counted indexes, in declaration order (the order of `split<j>` and `merge<j>`). */
  counted: readonly CountedIndex[];
}

/** Quotes an SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The counts table of index column `column` (unquoted): `<table>_<column>_n` fits 63 bytes with the longest table name. */
export function countsTableName(table: string, column: string): string {
  return `${table}_${column}_n`;
}

/** The version an index is declared with (1 when not given): a new version re-encodes stored keys. */
export function indexVersion(def: TableDef<unknown>, name: string): number {
  const version = def.indexes[name]?.version ?? 1;
  if (!Number.isInteger(version) || version < 1) throw new Error(`index ${def.name}.${name}: version must be a whole number ≥ 1`);
  return version;
}

/** The longest table name: `<table>_k<n>` must fit PostgreSQL's 63-byte identifiers. */
const MAX_TABLE_NAME = 48;

/** Throws unless `def` can lie in PostgreSQL as declared. */
export function checkTableDef(def: TableDef<unknown>): void {
  if (!/^[a-z][a-z0-9_]*$/.test(def.name) || def.name.length > MAX_TABLE_NAME) {
    throw new Error(`table ${JSON.stringify(def.name)}: PostgreSQL storage takes names of lowercase letters, digits and _ (starting with a letter), at most ${MAX_TABLE_NAME} long`);
  }
  if (Object.hasOwn(def.indexes, PRIMARY_INDEX)) {
    throw new Error(`table ${def.name}: the index name "${PRIMARY_INDEX}" is reserved for the primary key`);
  }
}

/** The layout of `def` in `schema`, with the columns the database recorded. */
export function tableLayout(schema: string, def: TableDef<unknown>, stored: StoredLayout, sizes: BucketSizes): TableLayout {
  const sql = `${ident(schema)}.${ident(def.name)}`;
  const indexes = Object.keys(def.indexes).map((name): IndexLayout => {
    const index = def.indexes[name]!;
    const { column, counted } = stored.indexes[name]!;
    const counts = counted ? `${ident(schema)}.${ident(countsTableName(def.name, column))}` : null;
    return { name, column, unique: index.unique === true, key: index.key, counts };
  });
  const primary: IndexLayout = { name: PRIMARY_INDEX, column: "id", unique: true, key: (row) => [def.primaryKey(row)], counts: null };
  return {
    def,
    sql,
    indexes,
    byName: new Map([[PRIMARY_INDEX, primary], ...indexes.map((index) => [index.name, index] as const)]),
    put: putSql(sql, indexes, sizes),
    putUnchecked: upsertSql(sql, indexes, ""),
    delete: deleteSql(sql, indexes, sizes),
    // count(*), not a constant: PostgreSQL folds constant expressions when it plans, and would divide by zero there.
    check: `SELECT 1 / count(*)::int AS ok FROM ${sql} WHERE id = $1::bytea AND data = $2::text`,
    checkAbsent: `SELECT 1 / (1 - count(*)::int) AS ok FROM ${sql} WHERE id = $1::bytea`,
    checkedUpdate: checkedUpdateSql(sql, indexes),
    counted: indexes.flatMap((index) => countedOf(sql, index) ?? []),
  };
}

/**
 * The upsert of one row: $1 id, $2 data, then one key per declared index.
 * With unique indexes, one statement both looks for another row holding
 * one of the row's unique keys and writes only if there is none; it answers
 * the position of the first such index (`clash`), or null. (A clash is the
 * caller's error, which must not abort the transaction as a failed INSERT
 * would.) With counted indexes, the same statement moves their counts and
 * answers, per counted index, a bucket to split or merge (`split<j>`,
 * `merge<j>`), or null.
 */
function putSql(table: string, indexes: readonly IndexLayout[], sizes: BucketSizes): string {
  const unique = indexes.flatMap((index, i) => (index.unique ? [{ i, column: index.column, param: i + 3 }] : []));
  const counted = indexes.flatMap((index, i) => {
    const found = countedOf(table, index);
    return found === null ? [] : [{ index: found, param: i + 3 }];
  });
  if (unique.length === 0 && counted.length === 0) return upsertSql(table, indexes, "");
  const ctes: string[] = [];
  const select = [unique.length === 0 ? "NULL::int AS clash" : "(SELECT min(i) FROM clash) AS clash"];
  if (counted.length > 0) ctes.push(`old AS (SELECT ${counted.map(({ index }) => index.column).join(", ")} FROM ${table} WHERE id = $1::bytea)`);
  if (unique.length > 0) {
    const clash = unique.map(({ i, column, param }) => `SELECT ${i} AS i FROM ${table} WHERE ${column} = $${param}::bytea AND id <> $1::bytea`).join(" UNION ALL ");
    ctes.push(`clash AS (${clash})`);
  }
  ctes.push(`written AS (${upsertSql(table, indexes, unique.length > 0 ? " WHERE NOT EXISTS (SELECT FROM clash)" : "")} RETURNING 1)`);
  counted.forEach(({ index, param }, j) => {
    const move = moveCountsSql(index, j, sizes, { from: "old", key: `old.${index.column}` }, `$${param}::bytea`);
    ctes.push(...move.ctes);
    select.push(...move.columns);
  });
  return `WITH ${ctes.join(", ")} SELECT ${select.join(", ")}`;
}

/** The upsert of one row ($1 id, $2 data, then one key per index); `where`: a WHERE clause of its SELECT (" WHERE …"), or "". */
function upsertSql(table: string, indexes: readonly IndexLayout[], where: string): string {
  const columns = ["id", "data", ...indexes.map((index) => index.column)];
  const values = columns.map((column, i) => `$${i + 1}::${column === "data" ? "text" : "bytea"}`);
  const update = columns.slice(1).map((column) => `${column} = EXCLUDED.${column}`).join(", ");
  return `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${values.join(", ")}${where} ON CONFLICT (id) DO UPDATE SET ${update}`;
}

/** `TableLayout.checkedUpdate`: $1 id, $2 the copy's text, $3 the new text, $4… its index keys. */
function checkedUpdateSql(table: string, indexes: readonly IndexLayout[]): string {
  const set = ["data = $3::text", ...indexes.map((index, i) => `${index.column} = $${i + 4}::bytea`)].join(", ");
  return `WITH written AS (UPDATE ${table} SET ${set} WHERE id = $1::bytea AND data = $2::text RETURNING 1) SELECT 1 / count(*)::int AS ok FROM written`;
}

/** The delete of one row ($1 id), answering `found`, and with counted indexes a bucket to merge per counted index (`merge<j>`). */
function deleteSql(table: string, indexes: readonly IndexLayout[], sizes: BucketSizes): string {
  const counted = indexes.flatMap((index) => countedOf(table, index) ?? []);
  if (counted.length === 0) return `DELETE FROM ${table} WHERE id = $1::bytea RETURNING 1 AS found`;
  const ctes = [`written AS (DELETE FROM ${table} WHERE id = $1::bytea RETURNING ${counted.map((index) => index.column).join(", ")})`];
  const select = ["(SELECT count(*) FROM written)::int AS found"];
  counted.forEach((index, j) => {
    const move = moveCountsSql(index, j, sizes, { from: "written", key: `written.${index.column}` }, null);
    ctes.push(...move.ctes);
    select.push(...move.columns);
  });
  return `WITH ${ctes.join(", ")} SELECT ${select.join(", ")}`;
}

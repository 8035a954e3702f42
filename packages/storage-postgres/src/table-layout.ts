/*
 * How a declared table lies in PostgreSQL: one SQL table per declared table,
 *
 *   id   bytea PRIMARY KEY   encodeKey([primary key]): ids sort as strings do in JavaScript
 *   data text NOT NULL       the row (row-codec.ts)
 *   k1…  bytea               encodeKey(the row's key) per declared index, NULL when left out of it
 *
 * with one btree per declared index on (kN, id) (unique: on kN alone, a
 * unique index). Columns are numbered, not named after indexes: an index
 * keeps its column while others come and go, and any index name works.
 */
import { PRIMARY_INDEX, type IndexKey, type TableDef } from "@playfield/core";
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
}

/** One index as the adapter uses it: its column, and how to compute a row's key. */
export interface IndexLayout {
  name: string;
  column: string;
  unique: boolean;
  key: (row: unknown) => IndexKey | null;
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
  /** The upsert of a row, checking unique keys first (see `putSql`). */
  put: string;
}

/** Quotes an SQL identifier. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
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
export function tableLayout(schema: string, def: TableDef<unknown>, stored: StoredLayout): TableLayout {
  const sql = `${ident(schema)}.${ident(def.name)}`;
  const indexes = Object.keys(def.indexes).map((name): IndexLayout => {
    const index = def.indexes[name]!;
    return { name, column: stored.indexes[name]!.column, unique: index.unique === true, key: index.key };
  });
  const primary: IndexLayout = { name: PRIMARY_INDEX, column: "id", unique: true, key: (row) => [def.primaryKey(row)] };
  return {
    def,
    sql,
    indexes,
    byName: new Map([[PRIMARY_INDEX, primary], ...indexes.map((index) => [index.name, index] as const)]),
    put: putSql(sql, indexes),
  };
}

/**
 * The upsert of one row: $1 id, $2 data, then one key per declared index.
 * With unique indexes, one statement both looks for another row holding
 * one of the row's unique keys and writes only if there is none; it answers
 * the position of the first such index (`clash`), or null. (A clash is the
 * caller's error, which must not abort the transaction as a failed INSERT
 * would.)
 */
function putSql(table: string, indexes: readonly IndexLayout[]): string {
  const columns = ["id", "data", ...indexes.map((index) => index.column)];
  const values = columns.map((column, i) => `$${i + 1}::${column === "data" ? "text" : "bytea"}`);
  const upsert = `INSERT INTO ${table} (${columns.join(", ")}) SELECT ${values.join(", ")}`;
  const update = `ON CONFLICT (id) DO UPDATE SET ${columns.slice(1).map((column) => `${column} = EXCLUDED.${column}`).join(", ")}`;
  const unique = indexes.flatMap((index, i) => (index.unique ? [{ i, column: index.column, param: i + 3 }] : []));
  if (unique.length === 0) return `${upsert} ${update}`;
  const clash = unique.map(({ i, column, param }) => `SELECT ${i} AS i FROM ${table} WHERE ${column} = $${param}::bytea AND id <> $1::bytea`).join(" UNION ALL ");
  return `WITH clash AS (${clash}), written AS (${upsert} WHERE NOT EXISTS (SELECT FROM clash) ${update}) SELECT min(i) AS clash FROM clash`;
}

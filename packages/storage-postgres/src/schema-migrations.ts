/*
 * Creating and migrating tables. Everything runs in one transaction that
 * first takes an advisory lock on the schema, so that processes starting at
 * once take turns: the first creates, the others find it done.
 *
 * Two bookkeeping tables live in the schema: `_playfield_migrations` (the
 * adapter's own schema version, one row per migration applied) and
 * `_playfield_tables` (each declared table's layout: which column holds
 * which index, unique or not, at which version). A declared table whose
 * indexes differ from its recorded layout is migrated: a new index gets a
 * new column filled from the stored rows, a dropped one loses its column,
 * a new version re-encodes its keys, a changed `unique` rebuilds its btree,
 * an index made counted gets its counts table (counted from the rows), one
 * no longer counted loses it.
 */
import type { TableDef } from "@playfield/core";
import { createCountsSql, rebuildCountsSql, type BucketSizes } from "./counted-index.js";
import { decodeRow } from "./row-codec.js";
import type { SqlSession } from "./sql-database.js";
import { checkTableDef, countsTableName, encodedKeyOf, ident, indexVersion, tableLayout, type IndexLayout, type StoredIndex, type StoredLayout, type TableLayout } from "./table-layout.js";

/** The adapter's own schema changes, in order; a database records how many it has applied. */
const MIGRATIONS: readonly ((schema: string) => string[])[] = [
  (schema) => [`CREATE TABLE ${ident(schema)}._playfield_tables (name text PRIMARY KEY, layout text NOT NULL)`],
];

/** Advisory lock key space of this adapter ("play"); the second key is the schema's hash. */
const LOCK_SPACE = 0x706c6179;

/** Rows read per batch while filling an index column. */
const BATCH = 1_000;

/**
 * Makes sure every table of `defs` exists in `schema` with the declared
 * indexes, migrating as needed, and answers their layouts. Opens and ends
 * its own transaction on `session`.
 */
export async function ensureTables(session: SqlSession, schema: string, defs: readonly TableDef<unknown>[], sizes: BucketSizes): Promise<TableLayout[]> {
  for (const def of defs) checkTableDef(def);
  await session.query("BEGIN");
  try {
    await session.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LOCK_SPACE, schema]);
    await migrate(session, schema);
    const layouts: TableLayout[] = [];
    for (const def of defs) layouts.push(tableLayout(schema, def, await ensureTable(session, schema, def, sizes), sizes));
    await session.query("COMMIT");
    return layouts;
  } catch (error) {
    await session.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** The tables the adapter created in `schema`, with their recorded layouts, by name; empty when it created none. */
export async function managedTables(session: SqlSession, schema: string): Promise<{ name: string; layout: StoredLayout }[]> {
  const rows = await session.query<{ name: string | null }>(`SELECT to_regclass($1) AS name`, [`${ident(schema)}._playfield_tables`]);
  if (rows[0]?.name == null) return [];
  const tables = await session.query<{ name: string; layout: string }>(`SELECT name, layout FROM ${ident(schema)}._playfield_tables ORDER BY name`);
  return tables.map((row) => ({ name: row.name, layout: JSON.parse(row.layout) as StoredLayout }));
}

async function migrate(session: SqlSession, schema: string): Promise<void> {
  await session.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
  const migrations = `${ident(schema)}._playfield_migrations`;
  await session.query(`CREATE TABLE IF NOT EXISTS ${migrations} (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  const [{ version }] = await session.query<{ version: number }>(`SELECT coalesce(max(version), 0)::int AS version FROM ${migrations}`) as [{ version: number }];
  if (version > MIGRATIONS.length) {
    throw new Error(`schema ${schema} is at storage version ${version}, newer than this adapter's ${MIGRATIONS.length}: upgrade @playfield/storage-postgres`);
  }
  for (let v = version + 1; v <= MIGRATIONS.length; v++) {
    for (const statement of MIGRATIONS[v - 1]!(schema)) await session.query(statement);
    await session.query(`INSERT INTO ${migrations} (version) VALUES ($1)`, [v]);
  }
}

/** Creates or migrates one table; answers its layout as now recorded. */
async function ensureTable(session: SqlSession, schema: string, def: TableDef<unknown>, sizes: BucketSizes): Promise<StoredLayout> {
  const tables = `${ident(schema)}._playfield_tables`;
  const table = `${ident(schema)}.${ident(def.name)}`;
  const [found] = await session.query<{ layout: string }>(`SELECT layout FROM ${tables} WHERE name = $1`, [def.name]);
  const declared = Object.keys(def.indexes);

  if (!found) {
    const layout: StoredLayout = { indexes: {}, next: declared.length + 1 };
    declared.forEach((name, i) => {
      layout.indexes[name] = storedIndex(def, name, `k${i + 1}`);
    });
    await createTable(session, schema, def.name, layout);
    await session.query(`INSERT INTO ${tables} (name, layout) VALUES ($1, $2)`, [def.name, JSON.stringify(layout)]);
    return layout;
  }

  const stored = JSON.parse(found.layout) as StoredLayout;
  const next: StoredLayout = { indexes: {}, next: stored.next };
  let changed = false;
  for (const [name, index] of Object.entries(stored.indexes)) {
    if (Object.hasOwn(def.indexes, name)) continue;
    await session.query(`DROP INDEX IF EXISTS ${ident(schema)}.${ident(`${def.name}_${index.column}`)}`);
    await session.query(`ALTER TABLE ${table} DROP COLUMN ${index.column}`);
    await session.query(`DROP TABLE IF EXISTS ${countsTable(schema, def.name, index.column)}`);
    changed = true;
  }
  for (const name of declared) {
    const old = Object.hasOwn(stored.indexes, name) ? stored.indexes[name]! : undefined;
    const wanted = storedIndex(def, name, old?.column ?? `k${next.next}`);
    if (old && JSON.stringify(old) === JSON.stringify(wanted)) {
      next.indexes[name] = old;
      continue;
    }
    changed = true;
    const { column, unique, version } = wanted;
    if (!old) next.next++;
    if (!old || old.unique !== unique || old.version !== version) {
      if (old) await session.query(`DROP INDEX IF EXISTS ${ident(schema)}.${ident(`${def.name}_${column}`)}`);
      else await session.query(`ALTER TABLE ${table} ADD COLUMN ${column} bytea`);
      if (!old || old.version !== version) await fillColumn(session, schema, def.name, { name, column, unique, key: def.indexes[name]!.key, counts: null });
      await createIndex(session, schema, def.name, column, unique);
    }
    // Counts made anew whenever the keys may have changed; dropped when the index is no longer counted.
    const counts = countsTable(schema, def.name, column);
    await session.query(`DROP TABLE IF EXISTS ${counts}`);
    if (wanted.counted) {
      for (const statement of createCountsSql(counts)) await session.query(statement);
      await recount(session, table, counts, column, unique, sizes);
    }
    next.indexes[name] = wanted;
  }
  if (changed) await session.query(`UPDATE ${tables} SET layout = $2 WHERE name = $1`, [def.name, JSON.stringify(next)]);
  return next;
}

/** How `def` declares index `name`, in column `column`, as the layout records it. */
function storedIndex(def: TableDef<unknown>, name: string, column: string): StoredIndex {
  const index = def.indexes[name]!;
  return { column, unique: index.unique === true, version: indexVersion(def, name), ...(index.counted === true ? { counted: true as const } : {}) };
}

/** Creates a table as `layout` records it: the table, a btree per index, a counts table per counted index. */
export async function createTable(session: SqlSession, schema: string, name: string, layout: StoredLayout): Promise<void> {
  const indexes = Object.values(layout.indexes);
  await session.query(`CREATE TABLE ${ident(schema)}.${ident(name)} (id bytea PRIMARY KEY, data text NOT NULL${indexes.map((index) => `, ${index.column} bytea`).join("")})`);
  for (const index of indexes) {
    await createIndex(session, schema, name, index.column, index.unique);
    if (index.counted) for (const statement of createCountsSql(countsTable(schema, name, index.column))) await session.query(statement);
  }
}

/** Counts every counted index of a table again from its rows (after a restore or a bulk load). */
export async function recountTable(session: SqlSession, schema: string, name: string, layout: StoredLayout, sizes: BucketSizes): Promise<void> {
  for (const index of Object.values(layout.indexes)) {
    if (index.counted) await recount(session, `${ident(schema)}.${ident(name)}`, countsTable(schema, name, index.column), index.column, index.unique, sizes);
  }
}

async function recount(session: SqlSession, table: string, counts: string, column: string, unique: boolean, sizes: BucketSizes): Promise<void> {
  for (const statement of rebuildCountsSql({ table, column, counts, unique }, sizes)) await session.query(statement);
}

/** The counts table of a column, schema-qualified and quoted. */
export function countsTable(schema: string, table: string, column: string): string {
  return `${ident(schema)}.${ident(countsTableName(table, column))}`;
}

export async function createIndex(session: SqlSession, schema: string, table: string, column: string, unique: boolean): Promise<void> {
  const name = ident(`${table}_${column}`);
  const on = `${ident(schema)}.${ident(table)}`;
  // Rows left out of an index (NULL key) take no room in its btree.
  await session.query(unique
    ? `CREATE UNIQUE INDEX ${name} ON ${on} (${column}) WHERE ${column} IS NOT NULL`
    : `CREATE INDEX ${name} ON ${on} (${column}, id) WHERE ${column} IS NOT NULL`);
}

/** Computes every stored row's key in one index column (key functions are JavaScript: the database cannot). */
async function fillColumn(session: SqlSession, schema: string, tableName: string, index: IndexLayout): Promise<void> {
  const table = `${ident(schema)}.${ident(tableName)}`;
  const column = index.column;
  let after: Uint8Array = new Uint8Array(0);
  for (;;) {
    const rows = await session.query<{ id: Uint8Array; data: string }>(`SELECT id, data FROM ${table} WHERE id > $1::bytea ORDER BY id LIMIT ${BATCH}`, [after]);
    if (rows.length === 0) return;
    const ids = rows.map((row) => hex(row.id));
    const keys = rows.map((row) => {
      const encoded = encodedKeyOf(tableName, index, decodeRow(row.data));
      return encoded === null ? null : hex(encoded.bytes);
    });
    await session.query(
      `UPDATE ${table} AS t SET ${column} = decode(v.k, 'hex') FROM unnest($1::text[], $2::text[]) AS v(id, k) WHERE t.id = decode(v.id, 'hex')`,
      [ids, keys],
    );
    after = new Uint8Array(rows.at(-1)!.id);
  }
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

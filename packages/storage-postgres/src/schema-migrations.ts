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
 * a new version re-encodes its keys, a changed `unique` rebuilds its btree.
 */
import type { TableDef } from "@playfield/core";
import { decodeRow } from "./row-codec.js";
import type { SqlSession } from "./sql-database.js";
import { checkTableDef, encodedKeyOf, ident, indexVersion, tableLayout, type IndexLayout, type StoredLayout, type TableLayout } from "./table-layout.js";

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
export async function ensureTables(session: SqlSession, schema: string, defs: readonly TableDef<unknown>[]): Promise<TableLayout[]> {
  for (const def of defs) checkTableDef(def);
  await session.query("BEGIN");
  try {
    await session.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [LOCK_SPACE, schema]);
    await migrate(session, schema);
    const layouts: TableLayout[] = [];
    for (const def of defs) layouts.push(tableLayout(schema, def, await ensureTable(session, schema, def)));
    await session.query("COMMIT");
    return layouts;
  } catch (error) {
    await session.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/** The tables the adapter created in `schema`, for `clear`; empty when it created none. */
export async function managedTables(session: SqlSession, schema: string): Promise<string[]> {
  const rows = await session.query<{ name: string | null }>(`SELECT to_regclass($1) AS name`, [`${ident(schema)}._playfield_tables`]);
  if (rows[0]?.name == null) return [];
  const tables = await session.query<{ name: string }>(`SELECT name FROM ${ident(schema)}._playfield_tables ORDER BY name`);
  return tables.map((row) => row.name);
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
async function ensureTable(session: SqlSession, schema: string, def: TableDef<unknown>): Promise<StoredLayout> {
  const tables = `${ident(schema)}._playfield_tables`;
  const table = `${ident(schema)}.${ident(def.name)}`;
  const [found] = await session.query<{ layout: string }>(`SELECT layout FROM ${tables} WHERE name = $1`, [def.name]);
  const declared = Object.keys(def.indexes);

  if (!found) {
    const layout: StoredLayout = { indexes: {}, next: declared.length + 1 };
    declared.forEach((name, i) => {
      layout.indexes[name] = { column: `k${i + 1}`, unique: def.indexes[name]!.unique === true, version: indexVersion(def, name) };
    });
    const columns = Object.values(layout.indexes).map((index) => `, ${index.column} bytea`).join("");
    await session.query(`CREATE TABLE ${table} (id bytea PRIMARY KEY, data text NOT NULL${columns})`);
    for (const index of Object.values(layout.indexes)) await createIndex(session, schema, def.name, index.column, index.unique);
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
    changed = true;
  }
  for (const name of declared) {
    const unique = def.indexes[name]!.unique === true;
    const version = indexVersion(def, name);
    const old = Object.hasOwn(stored.indexes, name) ? stored.indexes[name]! : undefined;
    if (old && old.unique === unique && old.version === version) {
      next.indexes[name] = old;
      continue;
    }
    changed = true;
    const column = old?.column ?? `k${next.next++}`;
    if (old) await session.query(`DROP INDEX IF EXISTS ${ident(schema)}.${ident(`${def.name}_${column}`)}`);
    else await session.query(`ALTER TABLE ${table} ADD COLUMN ${column} bytea`);
    if (!old || old.version !== version) await fillColumn(session, schema, def.name, { name, column, unique, key: def.indexes[name]!.key });
    await createIndex(session, schema, def.name, column, unique);
    next.indexes[name] = { column, unique, version };
  }
  if (changed) await session.query(`UPDATE ${tables} SET layout = $2 WHERE name = $1`, [def.name, JSON.stringify(next)]);
  return next;
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

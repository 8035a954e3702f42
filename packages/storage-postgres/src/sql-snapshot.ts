/*
 * Snapshot and restore: every row of every table the adapter made in a
 * schema, copied as stored (id, row text and index keys, as hex), so that a
 * restore computes no key again and needs no table definition: a table the
 * snapshot has and the schema lacks is made from its recorded layout.
 */
import type { StorageSnapshot } from "@playfield/core";
import type { BucketSizes } from "./counted-index.js";
import { createTable, managedTables, recountTable } from "./schema-migrations.js";
import type { SqlSession } from "./sql-database.js";
import { ident, type StoredLayout } from "./table-layout.js";

export const SNAPSHOT_ADAPTER = "playfield-postgres";

/** One table in a snapshot: its layout and its rows, each [id, data, key per column…] with bytes as hex. */
interface TableCopy {
  name: string;
  layout: StoredLayout;
  rows: (string | null)[][];
}

/** Rows written per INSERT while restoring. */
const BATCH = 1_000;

/** Every row of every table in `schema`, as of one moment. */
export async function takeSnapshot(session: SqlSession, schema: string): Promise<StorageSnapshot> {
  await session.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  try {
    const tables: TableCopy[] = [];
    for (const { name, layout } of await managedTables(session, schema)) {
      const columns = keyColumns(layout);
      const rows = await session.query<Record<string, string | null>>(
        `SELECT encode(id, 'hex') AS id, data${columns.map((c) => `, encode(${c}, 'hex') AS ${c}`).join("")} FROM ${table(schema, name)} ORDER BY id`,
      );
      tables.push({ name, layout, rows: rows.map((row) => ["id", "data", ...columns].map((c) => row[c] ?? null)) });
    }
    await session.query("COMMIT");
    return { adapter: SNAPSHOT_ADAPTER, data: tables };
  } catch (error) {
    await session.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

/**
 * Replaces every row of `schema` with the snapshot's, in one transaction:
 * a snapshot that does not load changes nothing. Tables the snapshot lacks
 * are emptied; a table whose layout changed since is refused.
 */
export async function restoreSnapshot(session: SqlSession, schema: string, snapshot: StorageSnapshot, sizes: BucketSizes): Promise<void> {
  const copies = tablesOf(snapshot);
  await session.query("BEGIN");
  try {
    const current = new Map((await managedTables(session, schema)).map(({ name, layout }) => [name, layout]));
    for (const copy of copies) {
      const layout = current.get(copy.name);
      if (layout === undefined) await createFromLayout(session, schema, copy.name, copy.layout);
      else if (JSON.stringify(layout) !== JSON.stringify(copy.layout)) {
        throw new Error(`table ${copy.name} changed its indexes since the snapshot was taken: it cannot be restored`);
      }
    }
    for (const name of current.keys()) await session.query(`DELETE FROM ${table(schema, name)}`);
    // Counts are not copied: they are counted again from the restored rows.
    for (const [name, layout] of current) if (!copies.some((copy) => copy.name === name)) await recountTable(session, schema, name, layout, sizes);
    for (const copy of copies) {
      const columns = keyColumns(copy.layout);
      const names = ["id", "data", ...columns];
      const values = names.map((c, i) => (c === "data" ? `r.c${i}` : `decode(r.c${i}, 'hex')`));
      const text = `INSERT INTO ${table(schema, copy.name)} (${names.join(", ")}) SELECT ${values.join(", ")} FROM unnest(${names.map((_, i) => `$${i + 1}::text[]`).join(", ")}) AS r(${names.map((_, i) => `c${i}`).join(", ")})`;
      for (let i = 0; i < copy.rows.length; i += BATCH) {
        const batch = copy.rows.slice(i, i + BATCH);
        await session.query(text, names.map((_, c) => batch.map((row) => row[c] ?? null)));
      }
      await recountTable(session, schema, copy.name, copy.layout, sizes);
    }
    await session.query("COMMIT");
  } catch (error) {
    await session.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

async function createFromLayout(session: SqlSession, schema: string, name: string, layout: StoredLayout): Promise<void> {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`a snapshot names a table ${JSON.stringify(name)} no declaration could have`);
  for (const index of Object.values(layout.indexes)) checkedColumn(index.column);
  await createTable(session, schema, name, layout);
  await session.query(`INSERT INTO ${ident(schema)}._playfield_tables (name, layout) VALUES ($1, $2)`, [name, JSON.stringify(layout)]);
}

function keyColumns(layout: StoredLayout): string[] {
  return Object.values(layout.indexes).map((index) => checkedColumn(index.column)).sort();
}

/** Key columns are k1, k2, …: anything else in a snapshot is refused before it reaches SQL. */
function checkedColumn(column: string): string {
  if (!/^k[0-9]+$/.test(column)) throw new Error(`a snapshot names a column ${JSON.stringify(column)} the adapter never makes`);
  return column;
}

function table(schema: string, name: string): string {
  return `${ident(schema)}.${ident(name)}`;
}

function tablesOf(snapshot: StorageSnapshot): TableCopy[] {
  if (snapshot.adapter !== SNAPSHOT_ADAPTER || !Array.isArray(snapshot.data)) {
    throw new TypeError(`a snapshot of ${JSON.stringify(snapshot.adapter)} storage cannot be restored into PostgreSQL storage`);
  }
  return snapshot.data as TableCopy[];
}

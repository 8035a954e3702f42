/** Schemas for the PostgreSQL test files: each works in one no other run uses, dropped after it. */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** A new schema name for `purpose` (created by the storage on first use). */
export function freshSchema(purpose: string): string {
  return `test_${purpose}_${process.pid}_${randomBytes(4).toString("hex")}`;
}

/** Drops `schema` and everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  await adminQuery(url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** One statement on a connection of its own, outside any storage. */
export async function adminQuery<Row extends pg.QueryResultRow = pg.QueryResultRow>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

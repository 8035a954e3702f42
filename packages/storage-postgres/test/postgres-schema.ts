/** A schema name no other run uses, and its removal: each PostgreSQL test file works in its own. */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** A new schema name for `purpose` (created by the storage on first use). */
export function freshSchema(purpose: string): string {
  return `test_${purpose}_${process.pid}_${randomBytes(4).toString("hex")}`;
}

/** Drops `schema` and everything in it. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

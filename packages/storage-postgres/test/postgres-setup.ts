/*
 * Vitest global setup of this package: finds out once whether PostgreSQL
 * answers at PLAYFIELD_TEST_DATABASE_URL (default: this machine's test
 * database; not DATABASE_URL, which the server command reads), and
 * hands the URL (or null) to the test files. When it does not answer, the
 * PostgreSQL suites are skipped with one line saying so; in CI (env CI or
 * PLAYFIELD_CI) they must run, so the run fails instead.
 */
import pg from "pg";
import type { TestProject } from "vitest/node";

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/test";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server the suites use, or null when none answered. */
    postgresUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const url = process.env.PLAYFIELD_TEST_DATABASE_URL || DEFAULT_URL;
  const failure = await probe(url);
  if (failure === null) {
    project.provide("postgresUrl", url);
    return;
  }
  const message = `PostgreSQL at ${redact(url)} did not answer (${failure})`;
  if (process.env.CI || process.env.PLAYFIELD_CI) throw new Error(`${message}: CI must run the PostgreSQL suites (start it, or set PLAYFIELD_TEST_DATABASE_URL)`);
  console.warn(`\n[storage-postgres] ${message}: the PostgreSQL suites are SKIPPED. Start PostgreSQL or set PLAYFIELD_TEST_DATABASE_URL to run them.\n`);
  project.provide("postgresUrl", null);
}

async function probe(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}

/*
 * The storage the server suites run on: memory in the "server" project, and
 * PGlite or PostgreSQL in the "server-pglite" and "server-postgres"
 * projects (vitest.workspace.ts), which run a chosen set of end-to-end
 * suites again unchanged. A test file opens one database (an in-memory
 * PGlite from a dump with every table, or a schema of its own on
 * PostgreSQL, dropped after the file) and
 * clears it for each server; a second server alive at the same time gets a
 * second one. The PostgreSQL adapter is imported only by those projects.
 */
import { tables, type Storage } from "@playfield/core";
import { createMemoryStorage } from "@playfield/server";
import type { SqlStorage } from "@playfield/storage-postgres";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";

export type StorageKind = "memory" | "pglite" | "postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** Which storage the server suites run on (memory when not provided). */
    serverStorage?: StorageKind;
    /** The PostgreSQL server of the PostgreSQL projects (their global setup), or null when none answered. */
    postgresUrl: string | null;
  }
}

/** The storage kind of this run. */
export const storageKind: StorageKind = inject("serverStorage") ?? "memory";

/** A storage for one server, cleared; `release` when the server is gone. */
export interface StorageLease {
  storage: Storage;
  release(): void;
}

/** Databases of this file not in use, and every one opened. */
const idle: SqlStorage[] = [];
const opened: SqlStorage[] = [];
const dropAfter: (() => Promise<void>)[] = [];

if (storageKind === "postgres" && inject("postgresUrl") === null) {
  // The global setup said once that PostgreSQL did not answer (and failed the run in CI).
  beforeEach(({ skip }) => skip());
} else if (storageKind !== "memory") {
  // The file's first database opens in a hook, not in its first test: that takes seconds on PGlite.
  beforeAll(async () => { idle.push(await openDatabase(storageKind)); }, 120_000);
  afterAll(async () => {
    await Promise.all(opened.map((storage) => storage.close()));
    for (const drop of dropAfter) await drop();
  }, 60_000);
}

/** A cleared storage for a new server: memory, or a database of this file's. */
export async function leaseStorage(): Promise<StorageLease> {
  if (storageKind === "memory") return { storage: createMemoryStorage(), release: () => undefined };
  const storage = idle.pop() ?? await openDatabase(storageKind);
  await storage.clear();
  return { storage, release: () => { idle.push(storage); } };
}

/** How many transactions this file's databases ran again after a conflict so far (0 on memory, which never conflicts). */
export function retriesSoFar(): number {
  return opened.reduce((sum, storage) => sum + storage.retries, 0);
}

async function openDatabase(kind: "pglite" | "postgres"): Promise<SqlStorage> {
  const { createPgliteStorage, createPostgresStorage } = await import("@playfield/storage-postgres");
  let storage: SqlStorage;
  if (kind === "pglite") {
    // From the dump the project's global setup made: seconds less than a new PGlite per file.
    const { pgliteFromTemplate } = await import("../../storage-postgres/test/pglite-template.js");
    storage = createPgliteStorage({ pglite: await pgliteFromTemplate(inject("pgliteTemplate")!) });
  } else {
    const { dropSchema, freshSchema } = await import("../../storage-postgres/test/postgres-schema.js");
    const url = inject("postgresUrl")!;
    storage = createPostgresStorage({ url, schema: freshSchema("server") });
    dropAfter.push(() => dropSchema(url, storage.schema));
  }
  opened.push(storage);
  await storage.init(tables.allTables);
  return storage;
}

/*
 * The Playfield server of the HTTP benchmarks, as a child process: production
 * settings, no datastore budget in the way of a load test, and the world of
 * bench-world.ts with PLAYFIELD_BENCH_PLAYERS more buyers (default none). Prints, as
 * JSON on the first line: the URL, the buyer's id, access and game tokens,
 * the item's id, and the same of each of the others (`players`).
 *
 * Its storage is PLAYFIELD_BENCH_STORAGE: "memory" (default), "pglite" (a
 * data folder in the temp directory, as `--data-dir` runs) or "postgres" (a
 * schema of its own at PLAYFIELD_TEST_DATABASE_URL). Either is removed when
 * the process is asked to stop (SIGTERM).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Storage } from "@playfield/core";
import { createMemoryStorage, startServer } from "@playfield/server-memory";
import { createPgliteStorage, createPostgresStorage } from "@playfield/storage-postgres";
import { dropSchema, freshSchema } from "../../packages/storage-postgres/test/postgres-schema.js";
import { seedBenchWorld } from "./bench-world.js";

/** Players of the many-players cases (PLAYFIELD_BENCH_PLAYERS, default none). */
const PLAYERS = Number(process.env.PLAYFIELD_BENCH_PLAYERS ?? 0);

/** The storage the environment names, and how to remove what it made. */
async function openStorage(): Promise<{ storage: Storage; remove: () => Promise<void> }> {
  const kind = process.env.PLAYFIELD_BENCH_STORAGE ?? "memory";
  if (kind === "memory") return { storage: createMemoryStorage(), remove: async () => undefined };
  if (kind === "pglite") {
    const folder = await mkdtemp(join(tmpdir(), "playfield-bench-"));
    const storage = createPgliteStorage({ dataDir: join(folder, "data") });
    return { storage, remove: async () => { await storage.close(); await rm(folder, { recursive: true, force: true }); } };
  }
  if (kind === "postgres") {
    const url = process.env.PLAYFIELD_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
    const storage = createPostgresStorage({ url, schema: freshSchema("bench_http") });
    return { storage, remove: async () => { await storage.close(); await dropSchema(url, storage.schema); } };
  }
  throw new Error(`PLAYFIELD_BENCH_STORAGE=${kind}: memory, pglite or postgres`);
}

const { storage, remove } = await openStorage();
// Configured as in production: answers are not re-validated against their schemas.
const server = await startServer({ port: 0, storage, environment: "production", datastore: { requestsPerMinute: 1e15, storedBytes: 1e15 } });
process.once("SIGTERM", () => {
  void server.close().then(remove).finally(() => process.exit(0));
});
const world = await seedBenchWorld(server, PLAYERS);
console.log(JSON.stringify({ url: server.url, ...world }));

/*
 * The Playfield server of the HTTP benchmarks, as a child process: production
 * settings, no datastore budget in the way of a load test. One buyer account
 * with credits, in a game session (for its game token), and a developer
 * product on sale by another account. Prints, as JSON on the first line: the
 * URL, the buyer's id, access and game tokens, and the item's id.
 *
 * Its storage is PLAYFIELD_BENCH_STORAGE: "memory" (default), "pglite" (a
 * data folder in the temp directory, as `--data-dir` runs) or "postgres" (a
 * schema of its own at PLAYFIELD_TEST_DATABASE_URL). Either is removed when
 * the process is asked to stop (SIGTERM).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tables, type Storage } from "@playfield/core";
import { createMemoryStorage, startServer } from "@playfield/server-memory";
import { createPgliteStorage, createPostgresStorage } from "@playfield/storage-postgres";
import { dropSchema, freshSchema } from "../../packages/storage-postgres/test/postgres-schema.js";

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
const user = await server.seed.user();
const gameToken = await server.seed.gameToken(user, { experienceId: "exp_bench", sessionId: "gs_bench" });
const creator = await server.seed.user();
const now = server.clock.now();
await server.deps.storage.transact((tx) => tx.put(tables.experiences, {
  id: "exp_bench", creatorId: creator.userId, title: "Bench", description: "", genre: "", thumbnailUrl: "", visibility: "public",
  hostingTier: "edge", maxPlayers: 10, startPlaceId: "plc", liveVersionId: null, createdAt: now, updatedAt: now,
  visits: 0, favorites: 0, upVotes: 0, downVotes: 0,
}));
await server.operator.wallets.grant(user.userId, 1_000_000_000_000);
const created = await server.handle(new Request(`${server.url}/svc.platform.v1.EconomyService/CreateItem`, {
  method: "POST",
  headers: { "content-type": "application/json", authorization: `Bearer ${creator.accessToken}` },
  body: JSON.stringify({ kind: "developer_product", name: "Gems", price: 1, experienceId: "exp_bench" }),
}));
if (created.status !== 200) throw new Error(`CreateItem: ${await created.text()}`);
const item = await created.json() as { id: string };
console.log(JSON.stringify({ url: server.url, userId: user.userId, token: user.accessToken, gameToken, itemId: item.id }));

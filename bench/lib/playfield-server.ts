/*
 * The Playfield server of the HTTP benchmarks, as a child process: production
 * settings, no datastore budget in the way of a load test. One buyer account
 * with credits, in a game session (for its game token), and a developer
 * product on sale by another account; and PLAYFIELD_BENCH_PLAYERS more such
 * buyers (default none), each with an item of another seller. Prints, as
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
import { tables, type Storage } from "@playfield/core";
import { createMemoryStorage, startServer } from "@playfield/server-memory";
import { createPgliteStorage, createPostgresStorage } from "@playfield/storage-postgres";
import { dropSchema, freshSchema } from "../../packages/storage-postgres/test/postgres-schema.js";

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
const user = await server.seed.user();
const gameToken = await server.seed.gameToken(user, { experienceId: "exp_bench", sessionId: "gs_bench" });
const creator = await server.seed.user();
const now = server.clock.now();
/** Sells a developer product of `seller`'s, in an experience of theirs made for it, and answers its id. */
async function createItem(seller: { userId: string; accessToken: string }, experienceId: string): Promise<string> {
  await server.deps.storage.transact((tx) => tx.put(tables.experiences, {
    id: experienceId, creatorId: seller.userId, title: "Bench", description: "", genre: "", thumbnailUrl: "", visibility: "public",
    hostingTier: "edge", maxPlayers: 10, startPlaceId: "plc", liveVersionId: null, createdAt: now, updatedAt: now,
    visits: 0, favorites: 0, upVotes: 0, downVotes: 0,
  }));
  const created = await server.handle(new Request(`${server.url}/svc.platform.v1.EconomyService/CreateItem`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${seller.accessToken}` },
    body: JSON.stringify({ kind: "developer_product", name: "Gems", price: 1, experienceId }),
  }));
  if (created.status !== 200) throw new Error(`CreateItem: ${await created.text()}`);
  return (await created.json() as { id: string }).id;
}
await server.operator.wallets.grant(user.userId, 1_000_000_000_000);
const itemId = await createItem(creator, "exp_bench");
// The many-players cases: PLAYERS buyers in the same game session, each with its own access and game tokens,
// its own datastore key (a user-scope "save") and an item of its own seller (sellers' wallets are one row per sale).
const players = await Promise.all(Array.from({ length: PLAYERS }, async () => {
  const [player, seller] = await Promise.all([server.seed.user(), server.seed.user()]);
  const itemId = await createItem(seller, `exp_bench_${seller.userId}`);
  const playerGameToken = await server.seed.gameToken(player, { experienceId: "exp_bench", sessionId: "gs_bench" });
  await server.operator.wallets.grant(player.userId, 1_000_000_000_000);
  return { userId: player.userId, token: player.accessToken, gameToken: playerGameToken, itemId };
}));
console.log(JSON.stringify({ url: server.url, userId: user.userId, token: user.accessToken, gameToken, itemId, players }));

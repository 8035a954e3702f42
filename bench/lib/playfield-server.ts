/*
 * The Playfield server of the HTTP benchmarks, as a child process: in memory,
 * production settings, no datastore budget in the way of a load test. One
 * buyer account with credits, in a game session (for its game token), and a
 * developer product on sale by another account. Prints, as JSON on the first
 * line: the URL, the buyer's id, access and game tokens, and the item's id.
 */
import { tables } from "@playfield/core";
import { startServer } from "@playfield/server-memory";

// Configured as in production: answers are not re-validated against their schemas.
const server = await startServer({ port: 0, environment: "production", datastore: { requestsPerMinute: 1e15, storedBytes: 1e15 } });
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

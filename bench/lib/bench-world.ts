/*
 * The world of the HTTP benchmarks, seeded on a running server: one buyer
 * account with credits, in a game session (for its game token), and a
 * developer product on sale by another account; and `players` more such
 * buyers, each with an item of another seller (sellers' wallets are one row
 * per sale).
 */
import { tables } from "@playfield/core";
import type { StartedServer } from "@playfield/server-memory";

export interface BenchPlayer {
  userId: string;
  /** Access token. */
  token: string;
  gameToken: string;
  /** A developer product of another account, price 1. */
  itemId: string;
}

export interface BenchWorld extends BenchPlayer {
  players: BenchPlayer[];
}

/** Seeds the buyer and `players` more on `server`. */
export async function seedBenchWorld(server: StartedServer, players: number): Promise<BenchWorld> {
  const user = await server.seed.user();
  const gameToken = await server.seed.gameToken(user, { experienceId: "exp_bench", sessionId: "gs_bench" });
  const creator = await server.seed.user();
  await server.operator.wallets.grant(user.userId, 1_000_000_000_000);
  const itemId = await createItem(server, creator, "exp_bench");
  const others = await Promise.all(Array.from({ length: players }, async () => {
    const [player, seller] = await Promise.all([server.seed.user(), server.seed.user()]);
    const playerItem = await createItem(server, seller, `exp_bench_${seller.userId}`);
    const playerGameToken = await server.seed.gameToken(player, { experienceId: "exp_bench", sessionId: "gs_bench" });
    await server.operator.wallets.grant(player.userId, 1_000_000_000_000);
    return { userId: player.userId, token: player.accessToken, gameToken: playerGameToken, itemId: playerItem };
  }));
  return { userId: user.userId, token: user.accessToken, gameToken, itemId, players: others };
}

/** Sells a developer product of `seller`'s, in an experience of theirs made for it, and answers its id. */
async function createItem(server: StartedServer, seller: { userId: string; accessToken: string }, experienceId: string): Promise<string> {
  const now = server.clock.now();
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

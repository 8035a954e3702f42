/*
 * The services on PostgreSQL with many players at once (docs/storage.md,
 * "Hot rows"): 16 players buy the same item of one experience at the same
 * moment, 16 players of one experience Set datastore values at once, and
 * 32 members of a group chat in it at once.
 * Every call succeeds, money is conserved (every wallet equals its ledger,
 * and what buyers paid is what sellers and the platform got), and no
 * transaction runs more than a few times. Skipped (said once by the global
 * setup) when PostgreSQL does not answer; CI fails instead.
 */
import { createClient, createMemoryTokenStore } from "@playfield/client";
import { tables, type Storage } from "@playfield/core";
import { createMemoryServer, type MemoryServer } from "@playfield/server-memory";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { chatServer, send } from "../../server/test/chat-world.js";
import { createPostgresStorage, type SqlStorage } from "../src/index.js";
import { dropSchema, freshSchema } from "./postgres-schema.js";

const url = inject("postgresUrl");
const PLAYERS = 16;
/** Runs of one transaction allowed here: conflicts may happen, but no call may keep losing. */
const MAX_RUNS = 6;

/** The storage, counting how many times each transaction's function runs (the adapter runs it again after a conflict). */
function countingRuns(inner: Storage): Storage & { runs: number[]; writeRuns: number[] } {
  const runs: number[] = [];
  /** The runs of read-write transactions alone (a read-only one answered from cached rows, then from the database, runs twice). */
  const writeRuns: number[] = [];
  return {
    ...inner,
    runs,
    writeRuns,
    async transact(fn, options) {
      let times = 0;
      try {
        return await inner.transact((tx) => {
          times++;
          return fn(tx);
        }, options);
      } finally {
        runs.push(times);
        if (options?.readOnly !== true) writeRuns.push(times);
      }
    },
    // The datastore's calls and BuyItem run here (usage sums, an item's sales shards: read before the transaction).
    async transactAfterReads(reads, fn) {
      let times = 0;
      try {
        return await inner.transactAfterReads!(reads, (tx, read) => {
          times++;
          return fn(tx, read);
        });
      } finally {
        runs.push(times);
        writeRuns.push(times);
      }
    },
  };
}

describe.skipIf(url === null)("services on PostgreSQL, many players at once", () => {
  const schema = freshSchema("hot");
  let sql: SqlStorage;
  let storage: ReturnType<typeof countingRuns>;
  let server: MemoryServer;
  beforeAll(async () => {
    sql = createPostgresStorage({ url: url!, schema });
    await sql.init(tables.allTables);
    storage = countingRuns(sql);
    server = createMemoryServer({ storage });
  });
  afterAll(async () => {
    await sql.close();
    await dropSchema(url!, schema);
  });

  const clientOf = (accessToken: string) => createClient({
    baseUrl: "http://playfield.test", fetch: server.fetch, tokenStore: createMemoryTokenStore({ accessToken, refreshToken: "", expiresAt: 0 }),
  });

  async function experienceOf(creatorId: string): Promise<string> {
    const id = server.deps.ids.id("exp");
    const now = server.clock.now();
    await storage.transact((tx) => tx.put(tables.experiences, {
      id, creatorId, title: "Busy world", description: "", genre: "", thumbnailUrl: "", visibility: "public", hostingTier: "edge",
      maxPlayers: 50, startPlaceId: "plc_1", liveVersionId: null, createdAt: now, updatedAt: now, visits: 0, favorites: 0, upVotes: 0, downVotes: 0,
    }));
    return id;
  }

  it("should let 16 players buy the same item of one experience at once, all succeeding, with money conserved", async () => {
    const creator = await server.seed.user();
    const experienceId = await experienceOf(creator.userId);
    const item = await clientOf(creator.accessToken).economy.createItem({ kind: "developer_product", name: "Gems", description: "", price: 10, experienceId });
    const buyers = await Promise.all(Array.from({ length: PLAYERS }, () => server.seed.user()));
    for (const buyer of buyers) await server.operator.wallets.grant(buyer.userId, 100);
    storage.runs.length = 0;
    const bought = await Promise.all(buyers.map((buyer, i) => clientOf(buyer.accessToken).economy.buyItem({
      itemId: item.id, expectedPrice: 10, requestId: `buy-${i}`, soldInExperienceId: experienceId,
    })));
    expect(bought.map((b) => b.wallet.total)).toEqual(buyers.map(() => 90));
    expect(Math.max(...storage.runs)).toBeLessThanOrEqual(MAX_RUNS);

    const everyone = [creator, ...buyers].map((u) => u.userId);
    const [wallets, orders] = await storage.transact(async (tx) => [
      await tx.getMany(tables.wallets, everyone),
      await tx.query(tables.orders, "byItemExperience", { equals: [experienceId] }),
    ] as const);
    expect(orders).toHaveLength(PLAYERS);
    // Every bucket of every wallet is the sum of its ledger rows.
    for (const [i, userId] of everyone.entries()) {
      const rows = await storage.transact((tx) => tx.query(tables.ledger, "byUser", { equals: [userId] }));
      const sum = (bucket: "purchased" | "earned" | "pending") => rows.reduce((total, row) => total + row[bucket], 0);
      expect({ purchased: wallets[i]!.purchased, earned: wallets[i]!.earned, pending: wallets[i]!.pending }).toEqual({ purchased: sum("purchased"), earned: sum("earned"), pending: sum("pending") });
    }
    // What the buyers paid is what the creator holds plus the platform's fees: nothing made or lost.
    const paid = PLAYERS * 10;
    const fees = orders.reduce((total, order) => total + order.fee, 0);
    const creatorWallet = wallets[0]!;
    expect(creatorWallet.purchased + creatorWallet.earned + creatorWallet.pending + fees).toBe(paid);
    expect(creatorWallet.pending).toBe(orders.reduce((total, order) => total + order.creatorShare + order.experienceShare, 0));
    const overview = await clientOf(creator.accessToken).creator.getOverview({});
    expect(overview.sales7d).toBe(PLAYERS);
    // Every sale counted once, in the buyers' shards; the item row, which every buyer read, written by none.
    expect((await clientOf(creator.accessToken).economy.getItem({ itemId: item.id })).sales).toBe(PLAYERS);
    const [row, shards] = await storage.transact(async (tx) => [await tx.get(tables.items, item.id), await tx.getMany(tables.itemSales, tables.itemSalesIds(item.id))] as const);
    expect(row!.sales).toBe(0);
    expect(shards.reduce((sum, shard) => sum + (shard?.sales ?? 0), 0)).toBe(PLAYERS);
  });

  it("should run one buyer's purchases made at once one after another in a server, none of them run twice", async () => {
    const creator = await server.seed.user();
    const experienceId = await experienceOf(creator.userId);
    const seller = clientOf(creator.accessToken).economy;
    const items = await Promise.all(Array.from({ length: 8 }, (_, i) => seller.createItem({ kind: "developer_product", name: `Gems ${i}`, description: "", price: 10, experienceId })));
    const buyer = await server.seed.user();
    await server.operator.wallets.grant(buyer.userId, 100);
    storage.writeRuns.length = 0;
    // Each would write the buyer's wallet: side by side on PostgreSQL, all but one would fail and run again.
    const bought = await Promise.all(items.map((item, i) => clientOf(buyer.accessToken).economy.buyItem({ itemId: item.id, expectedPrice: 10, requestId: `one-${i}` })));
    expect(bought.map((b) => b.wallet.total).sort((a, b) => b - a)).toEqual([90, 80, 70, 60, 50, 40, 30, 20]);
    expect(storage.writeRuns).toEqual(items.map(() => 1));
  });

  it("should run one player's writes of one key made at once one after another in a server, none of them run twice", async () => {
    const creator = await server.seed.user();
    const experienceId = await experienceOf(creator.userId);
    const player = await server.seed.user();
    const token = await server.seed.gameToken(player, { sessionId: server.deps.ids.id("gs"), experienceId });
    const client = createClient({ baseUrl: "http://playfield.test", fetch: server.fetch });
    await client.datastore.set({ key: "save", value: "0" }, { token });
    await client.datastore.incrementOrdered({ key: "", delta: 1 }, { token });
    storage.runs.length = 0;
    // Each writes the entry (or the ordered key): side by side on PostgreSQL, all but one would fail and run again.
    const [sets, increments] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, (_, i) => client.datastore.set({ key: "save", value: String(i + 1) }, { token }))),
      Promise.all(Array.from({ length: 8 }, () => client.datastore.incrementOrdered({ key: "", delta: 1 }, { token }))),
    ]);
    expect(sets.map((answer) => answer.version).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(increments.map((answer) => answer.value).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    // Every transaction ran once: the token checks' and the writes'.
    expect(storage.runs.length).toBeGreaterThanOrEqual(16);
    expect(storage.runs.filter((runs) => runs !== 1)).toEqual([]);
  });

  it("should store chat messages sent at once into one group conversation one after another in a server, numbered without gaps, none run twice", async () => {
    await using w = await chatServer({ storage });
    const members = await Promise.all(Array.from({ length: 2 * PLAYERS }, () => w.account()));
    const group = await members[0]!.client.social.createGroup({ name: "Loud room", description: "" });
    for (const member of members.slice(1)) await member.client.social.joinGroup({ groupId: group.id });
    const retries = sql.retries;
    storage.writeRuns.length = 0;
    // Each writes the conversation row (its last message, its count): side by side on PostgreSQL, all but one would fail and run again.
    const acks = await Promise.all(members.map((member, i) => send(member, `group:${group.id}`, `hello ${i}`)));
    expect(acks.map((ack) => ack.type)).toEqual(members.map(() => "chat_ack"));
    const [messages, conversation] = await storage.transact(async (tx) => [
      await tx.query(tables.chatMessages, "byConversation", { equals: [`group:${group.id}`] }),
      await tx.get(tables.chatConversations, `group:${group.id}`),
    ] as const);
    expect(messages.map((message) => message.id).sort()).toEqual(acks.map((ack) => ack.messageId).sort());
    // Numbered 1..n in the order they were stored (by position), no number lost or given twice.
    expect(messages.map((message) => message.n)).toEqual(members.map((_, i) => i + 1));
    expect(conversation!.count).toBe(members.length);
    // In turn, no send conflicted with another: none ran twice (nor did anything else the connections read meanwhile).
    expect(sql.retries - retries).toBe(0);
    expect(storage.writeRuns.length).toBeGreaterThanOrEqual(members.length);
    expect(storage.writeRuns.filter((runs) => runs !== 1)).toEqual([]);
  });

  it("should let 16 players of one experience Set datastore values at once, all succeeding, with the usage counted exactly", async () => {
    // In one minute: calls are counted per calendar minute, and a run that crossed one would count in two windows.
    server.clock.set(Date.UTC(2026, 5, 1, 12, 0, 0));
    server.clock.freeze();
    const creator = await server.seed.user();
    const experienceId = await experienceOf(creator.userId);
    const sessionId = server.deps.ids.id("gs");
    const players = await Promise.all(Array.from({ length: PLAYERS }, () => server.seed.user()));
    const tokens = await Promise.all(players.map((p) => server.seed.gameToken(p, { sessionId, experienceId })));
    const client = createClient({ baseUrl: "http://playfield.test", fetch: server.fetch });
    storage.runs.length = 0;
    const set = await Promise.all(tokens.map((token, i) => client.datastore.set({ key: "save", value: JSON.stringify({ level: i }) }, { token })));
    expect(set.every((answer) => answer.ok && answer.version === 1)).toBe(true);
    expect(Math.max(...storage.runs)).toBeLessThanOrEqual(MAX_RUNS);
    // Again, now that every player's rows exist: each Set also keeps the value it replaces.
    storage.runs.length = 0;
    const again = await Promise.all(tokens.map((token, i) => client.datastore.set({ key: "save", value: JSON.stringify({ level: i }) }, { token })));
    expect(again.every((answer) => answer.ok && answer.version === 2)).toBe(true);
    expect(Math.max(...storage.runs)).toBeLessThanOrEqual(MAX_RUNS);
    const got = await Promise.all(tokens.map((token) => client.datastore.get({ key: "save" }, { token })));
    expect(got.map((answer) => JSON.parse(answer.value))).toEqual(players.map((_, i) => ({ level: i })));
    // The Gets are counted in the server's process and written in the background; idle (a shutdown) writes them now.
    await server.lifecycle.idle();
    const shards = await storage.transact((tx) => tx.query(tables.datastoreUsageShards, "byExperience", { equals: [experienceId] }));
    const bytes = set.reduce((total, _, i) => total + "save".length + JSON.stringify({ level: i }).length, 0);
    expect(shards.reduce((total, row) => total + row.requests, 0)).toBe(3 * PLAYERS);
    expect(shards.reduce((total, row) => total + row.storedBytes, 0)).toBe(bytes);
    expect(shards.reduce((total, row) => total + row.playersSeen, 0)).toBe(PLAYERS);
  });
});

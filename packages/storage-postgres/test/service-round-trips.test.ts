/*
 * Messages a service call sends to the database (docs/storage.md, "Isolation
 * and retries"): each costs the server far more than the statements in it,
 * so a call's count is part of its behaviour. On PGlite in memory, with
 * every message counted; a read-only transaction of one message (the token
 * check) is left out, so that what is counted is the call's own.
 */
import { PGlite } from "@electric-sql/pglite";
import { createClient, createMemoryTokenStore } from "@playfield/client";
import { dmKey, SALE_HOLD_MS, tables } from "@playfield/core";
import { createMemoryServer, type MemoryServer } from "@playfield/server-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSqlStorage, pgliteDatabase, type SqlStorage } from "../src/index.js";
import { PURGE_EVERY_MS } from "../../server/src/services/datastore/history.js";
import { USAGE_FRESH_MS } from "../../server/src/services/datastore/usage-copy.js";
import { chatServer, received, send, sent, type Person } from "../../server/test/chat-world.js";
import { countedDatabase, messagesOf } from "./counted-database.js";

const messages: string[] = [];
/** The messages `fn` makes the storage send, but for read-only transactions of one message (the token check). */
async function tripsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const sent = await messagesOf(messages, fn);
  return sent.filter((text) => !(text.startsWith("BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY;") && text.endsWith("; COMMIT")));
}

let storage: SqlStorage;
let server: MemoryServer;
beforeAll(async () => {
  storage = createSqlStorage(countedDatabase(pgliteDatabase(new PGlite()), messages));
  await storage.init(tables.allTables);
  server = createMemoryServer({ storage });
}, 120_000);
afterAll(() => storage.close());

const clientOf = (accessToken: string, on: MemoryServer = server) => createClient({
  baseUrl: "http://playfield.test", fetch: on.fetch, tokenStore: createMemoryTokenStore({ accessToken, refreshToken: "", expiresAt: 0 }),
});

describe("messages per BuyItem", () => {
  it("should read what the request names at once and write with COMMIT: three messages, two once the server knows the creators", async () => {
    const [creator, host, buyer, again] = await Promise.all([server.seed.user(), server.seed.user(), server.seed.user(), server.seed.user()]);
    const now = server.clock.now();
    await storage.transact((tx) => tx.put(tables.experiences, {
      id: "exp_host", creatorId: host.userId, title: "Host", description: "", genre: "", thumbnailUrl: "", visibility: "public", hostingTier: "edge",
      maxPlayers: 10, startPlaceId: "plc_1", liveVersionId: null, createdAt: now, updatedAt: now, visits: 0, favorites: 0, upVotes: 0, downVotes: 0,
    }));
    const item = await clientOf(creator.accessToken).economy.createItem({ kind: "avatar_hat", name: "Hat", description: "", price: 100, experienceId: "" });
    for (const user of [buyer, again]) await server.operator.wallets.grant(user.userId, 1_000);
    // An avatar item sold in another creator's experience: the buyer, the item's creator and the experience's creator are paid.
    const buy = (user: { accessToken: string }) => clientOf(user.accessToken).economy.buyItem({
      itemId: item.id, expectedPrice: 100, requestId: "req-1", soldInExperienceId: "exp_host",
    });

    // The first sale this server sees: the creators' rows are read once the item and the experience name them. (The
    // item's sales shards, for the count the answer shows, come from copies, or in a snapshot in its first message.)
    const first = await tripsOf(() => buy(buyer));
    expect(first).toHaveLength(3);
    expect(first[2]).toMatch(/; COMMIT$/);
    // Then the creators are known: their rows are read with the item.
    const second = await tripsOf(() => buy(again));
    expect(second).toHaveLength(2);
    expect(second[1]).toMatch(/^INSERT .*; COMMIT$/s);
    // The sale is counted in the buyer's shard of the item's sales, not in the item row; the creator's name comes from the process's copy.
    expect(second.join("\n")).toMatch(/"item_sales" \(id/);
    expect(second.join("\n")).not.toMatch(/"items" \(id|"users"/);
    // A retried request: its reads, then COMMIT; nothing charged again.
    const before = await clientOf(again.accessToken).economy.getWallet({});
    const replay = await tripsOf(() => buy(again));
    expect(replay).toHaveLength(2);
    expect(await clientOf(again.accessToken).economy.getWallet({})).toEqual(before);

    const [creatorWallet, hostWallet] = await storage.transact((tx) => tx.getMany(tables.wallets, [creator.userId, host.userId]));
    expect([creatorWallet!.pending, hostWallet!.pending]).toEqual([140, 20]);

    // Three days on, the sellers' holds are due: settling their wallets reads the held rows in the first message too.
    server.clock.advance(SALE_HOLD_MS + 1);
    const late = await server.seed.user();
    await server.operator.wallets.grant(late.userId, 1_000);
    const due = await tripsOf(() => buy(late));
    expect(due).toHaveLength(2);
    const [creatorAfter, hostAfter] = await storage.transact((tx) => tx.getMany(tables.wallets, [creator.userId, host.userId]));
    expect([creatorAfter!.earned, creatorAfter!.pending, hostAfter!.earned, hostAfter!.pending]).toEqual([140, 70, 20, 10]);
  });
});

describe("statements per BuyItem of a developer product", () => {
  it("should not read the buyer's ownership row once the server knows the item is one: it is bought again and again, owned by no one", async () => {
    const [creator, buyer] = await Promise.all([server.seed.user(), server.seed.user()]);
    const now = server.clock.now();
    await storage.transact((tx) => tx.put(tables.experiences, {
      id: "exp_gems", creatorId: creator.userId, title: "Gems", description: "", genre: "", thumbnailUrl: "", visibility: "public", hostingTier: "edge",
      maxPlayers: 10, startPlaceId: "plc_1", liveVersionId: null, createdAt: now, updatedAt: now, visits: 0, favorites: 0, upVotes: 0, downVotes: 0,
    }));
    const gems = await clientOf(creator.accessToken).economy.createItem({ kind: "developer_product", name: "Gems", description: "", price: 10, experienceId: "exp_gems" });
    await server.operator.wallets.grant(buyer.userId, 1_000);
    const buy = () => tripsOf(() => clientOf(buyer.accessToken).economy.buyItem({ itemId: gems.id, expectedPrice: 10 }));
    const ownership = (sent: string[]) => sent.join("\n").includes('"ownership"');
    // The first purchase this server sees of the item reads the row (the item's kind is not known yet); then none does.
    expect(ownership(await buy())).toBe(true);
    expect(ownership(await buy())).toBe(false);
    expect(ownership(await buy())).toBe(false);
    expect((await clientOf(buyer.accessToken).economy.getWallet({})).purchased).toBe(970);
  });
});

describe("messages per datastore Get", () => {
  it("should send none once its rows are copied (or their absence), the process writing its count in the background in two messages", async () => {
    const user = await server.seed.user();
    const token = await server.seed.gameToken(user, { sessionId: "gs_trips", experienceId: "exp_trips" });
    const ds = clientOf(user.accessToken).datastore;
    const get = async () => expect(await ds.get({ key: "save" }, { token })).toMatchObject({ found: true, value: "{\"coins\":1}" });
    await ds.set({ key: "save", value: "{\"coins\":1}" }, { token });
    // The write dropped the copies of the entry and the player seen: read again, in one message.
    expect(await messagesOf(messages, get)).toHaveLength(1);
    // Whatever the background write had pending goes now, so that none runs while the next Get is counted.
    await server.lifecycle.idle();
    expect(await messagesOf(messages, get)).toEqual([]);
    // Its count: the snapshot of the other shards and the process's shard, then the write and COMMIT.
    const write = await messagesOf(messages, () => server.lifecycle.idle());
    expect(write).toHaveLength(2);
    expect(write[0]).toMatch(/^BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;.*BEGIN ISOLATION LEVEL SERIALIZABLE;/s);
    expect(write[1]).toMatch(/^INSERT .*; COMMIT$/s);
    const shards = await storage.transact((tx) => tx.query(tables.datastoreUsageShards, "byExperience", { equals: ["exp_trips"] }));
    expect(shards.reduce((sum, row) => sum + row.requests, 0)).toBe(3);

    // A key never written: its absence is copied as well.
    const missing = async () => expect(await ds.get({ key: "never" }, { token })).toMatchObject({ found: false });
    await missing();
    await server.lifecycle.idle();
    expect(await messagesOf(messages, missing)).toEqual([]);
    // Past the silence limit, in a session with no record (a seeded token), the membership check reads that the session has none: copied too.
    server.clock.advance(61_000);
    // (A new budget window: its first call reads the experience's sum.)
    await get();
    await server.lifecycle.idle();
    expect(await messagesOf(messages, get)).toEqual([]);
    await server.lifecycle.idle();
  });
});

describe("messages per datastore Set", () => {
  it("should write its usage shard only when the stored bytes change: a value of the same length writes the entry alone, its count written in the background", async () => {
    const user = await server.seed.user();
    const token = await server.seed.gameToken(user, { sessionId: "gs_set", experienceId: "exp_set" });
    const ds = clientOf(user.accessToken).datastore;
    // An upsert, or an update with the check of its copy (table-layout.ts, checkedUpdate).
    const shardWrites = (sent: string[]) => sent.filter((text) => /"datastore_usage_shards" (\(id|SET data)/.test(text));
    // The player's first call records them as seen: the shard row changes.
    expect(shardWrites(await messagesOf(messages, () => ds.set({ key: "save", value: "{\"coins\":1}" }, { token })))).toHaveLength(1);
    await server.lifecycle.idle();
    // Same length: the entry and its old value are written, the shard row is not; one message (the rows read are copies
    // checked in it: docs/storage.md, "Checked copies").
    const same = await messagesOf(messages, () => ds.set({ key: "save", value: "{\"coins\":2}" }, { token }));
    expect(same).toHaveLength(1);
    expect(shardWrites(same)).toEqual([]);
    expect(same[0]).toMatch(/(INSERT INTO|UPDATE) "public"."datastore_entries"/);
    // Its count goes with the process's background write.
    expect(shardWrites(await messagesOf(messages, () => server.lifecycle.idle()))).toHaveLength(1);
    // Longer: the stored bytes change, and the shard row with them, in the call's own messages.
    const longer = await messagesOf(messages, () => ds.set({ key: "save", value: "{\"coins\":20}" }, { token }));
    expect(longer).toHaveLength(1);
    expect(shardWrites(longer)).toHaveLength(1);
    const shards = await storage.transact((tx) => tx.query(tables.datastoreUsageShards, "byExperience", { equals: ["exp_set"] }));
    expect(shards.reduce((sum, row) => sum + row.requests, 0)).toBe(3);
    expect(shards.reduce((sum, row) => sum + row.storedBytes, 0)).toBe("save".length + "{\"coins\":20}".length);
  });
});

describe("the usage a datastore Set reads", () => {
  // The snapshot's read of every usage shard of the experience (its own shard is read by id, in the transaction).
  const shardsRead = (sent: string[]) => sent.filter((text) => /"datastore_usage_shards" WHERE k1 >=/.test(text));

  it("should go by its process's copy of the usage while the experience is under half its budget, then read it, and count exactly either way", async () => {
    const limited = createMemoryServer({ storage, datastore: { requestsPerMinute: 8, requestsPerPlayer: 0 } });
    const user = await limited.seed.user();
    const token = await limited.seed.gameToken(user, { sessionId: "gs_copy", experienceId: "exp_copy" });
    const ds = clientOf(user.accessToken, limited).datastore;
    // Each value one byte longer: every Set changes the stored bytes and writes its shard row.
    const reads: number[] = [];
    for (let i = 1; i <= 8; i++) reads.push(shardsRead(await messagesOf(messages, () => ds.set({ key: "k", value: JSON.stringify("x".repeat(i)) }, { token }))).length);
    // The first reads (no copy yet); calls 2-4 find 1-3 calls counted, under half of 8; from the fifth on, half is used.
    expect(reads).toEqual([1, 0, 0, 0, 1, 1, 1, 1]);
    await expect(ds.set({ key: "k", value: "1" }, { token })).rejects.toMatchObject({ code: "resource_exhausted" });
    const shards = await storage.transact((tx) => tx.query(tables.datastoreUsageShards, "byExperience", { equals: ["exp_copy"] }));
    expect(shards.reduce((sum, row) => sum + row.requests, 0)).toBe(8);
    expect(shards.reduce((sum, row) => sum + row.storedBytes, 0)).toBe("k".length + JSON.stringify("x".repeat(8)).length);
    await limited.lifecycle.idle();
  });

  it("should read it again once its copy is older than USAGE_FRESH_MS", async () => {
    const user = await server.seed.user();
    const token = await server.seed.gameToken(user, { sessionId: "gs_fresh", experienceId: "exp_fresh" });
    const ds = clientOf(user.accessToken).datastore;
    const set = async (value: string) => shardsRead(await messagesOf(messages, () => ds.set({ key: "k", value: JSON.stringify(value) }, { token }))).length;
    expect(await set("a")).toBe(1);
    expect(await set("ab")).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, USAGE_FRESH_MS + 50));
    expect(await set("abc")).toBe(1);
    expect(await set("abcd")).toBe(0);
    await server.lifecycle.idle();
  });
});

describe("a Get whose process's sum is stale", () => {
  it("should read the sum, even with a fresh copy of the usage rows, so that the next Get sends nothing", async () => {
    const user = await server.seed.user();
    const token = await server.seed.gameToken(user, { sessionId: "gs_stale", experienceId: "exp_stale" });
    const ds = clientOf(user.accessToken).datastore;
    await ds.set({ key: "k", value: "1" }, { token });
    const get = () => ds.get({ key: "k" }, { token });
    await get();
    // A new budget window: the process's sum of it is stale, its copy of the usage rows (read just now) is not.
    server.clock.advance(60_000);
    const first = await messagesOf(messages, get);
    expect(first.filter((text) => /"datastore_usage_shards" WHERE k1 >=/.test(text))).toHaveLength(1);
    expect(await messagesOf(messages, get)).toEqual([]);
    await server.lifecycle.idle();
  });
});

describe("the expired old values a datastore Set looks for", () => {
  it("should look once a second of the clock while a look finds less than a batch, and at once again after a whole batch", async () => {
    const purging = createMemoryServer({ storage });
    // Its own clock, past every other server's on this storage (the look is the storage's, one per process).
    purging.clock.set(Date.now() + 365 * 24 * 3_600_000);
    purging.clock.freeze();
    const user = await purging.seed.user();
    const join = () => purging.seed.gameToken(user, { sessionId: "gs_purge", experienceId: "exp_purge" });
    let token = await join();
    const ds = createClient({ baseUrl: "http://playfield.test", fetch: purging.fetch }).datastore;
    const looks = async (value: number) => (await messagesOf(messages, () => ds.set({ key: "k", value: String(value) }, { token })))
      .filter((text) => /"datastore_history" WHERE k2 >=/.test(text)).length;
    expect(await looks(0)).toBe(1);
    expect(await looks(1)).toBe(0);
    purging.clock.advance(PURGE_EVERY_MS - 1);
    expect(await looks(2)).toBe(0);
    purging.clock.advance(1);
    expect(await looks(3)).toBe(1);
    for (let i = 4; i <= 20; i++) await looks(i);
    // 20 old values of "k", all past the retention period now.
    purging.clock.advance(purging.deps.config.datastore.retentionMs + PURGE_EVERY_MS);
    token = await join();
    const expired = () => storage.transact((tx) => tx.count(tables.datastoreHistory, "byReplacedAt", { range: { lte: purging.clock.now() - purging.deps.config.datastore.retentionMs } }));
    expect(await looks(21)).toBe(1);
    expect(await expired()).toBe(4);
    // The look found a whole batch: the next write looks again at once, and purges the rest.
    expect(await looks(22)).toBe(1);
    expect(await expired()).toBe(0);
    expect(await looks(23)).toBe(0);
    await purging.lifecycle.idle();
  });
});

describe("messages per chat send", () => {
  // With the rate limit on (the test environment turns it off), so that the sender's bucket is read and written.
  const chatRate = { burst: 1_000, intervalMs: 1 };
  /** The messages of a first send into a conversation and of the next one, each checked stored once and delivered. */
  async function twoSends(from: Person, to: Person, channel: string, key: string): Promise<number[]> {
    const counts: number[] = [];
    for (const text of ["first", "second"]) {
      let ack: Record<string, unknown> = {};
      const trips = await tripsOf(async () => { ack = await send(from, channel, text); });
      expect(ack).toMatchObject({ type: "chat_ack", duplicate: false });
      await received(to.socket, ack.messageId as string);
      const stored = await storage.transact((tx) => tx.query(tables.chatMessages, "byConversation", { equals: [key] }));
      expect(stored.filter((message) => message.text === text).map((message) => message.id)).toEqual([ack.messageId]);
      // Every write goes with COMMIT, in the last message.
      expect(trips.at(-1)).toMatch(/INSERT INTO "public"."chat_messages".*; COMMIT$/s);
      counts.push(trips.length);
    }
    return counts;
  }

  it("should ask for a group message's reads at once: the request's, then the members', then COMMIT", async () => {
    await using w = await chatServer({ storage, chatRate });
    const [owner, other] = await Promise.all([w.account(), w.account()]);
    const group = await owner.client.social.createGroup({ name: "Trips", description: "" });
    await other.client.social.joinGroup({ groupId: group.id });
    // The sender, an earlier message of its clientMessageId, the membership, the member list, the conversation, the bucket
    // and the read marker in the first message; the members' accounts and blocks in the second (they wait for the list).
    expect(await twoSends(owner, other, `group:${group.id}`, `group:${group.id}`)).toEqual([3, 3]);
  });

  it("should answer a resend from its first message, and a refusal, writing nothing and taking no token", async () => {
    await using w = await chatServer({ storage, chatRate });
    const [owner, stranger] = await Promise.all([w.account(), w.account()]);
    const group = await owner.client.social.createGroup({ name: "Closed", description: "" });
    const channel = `group:${group.id}`;
    const first = await send(owner, channel, "once", "c-once");
    const bucket = () => storage.transact((tx) => tx.getMany(tables.chatBuckets, [owner.id, stranger.id]));
    const before = await bucket();
    let resent: Record<string, unknown> = {};
    // On another connection of the sender's (the first has the first answer). The resend's other reads are never awaited:
    // it is answered from the stored message, then COMMIT alone.
    const again = await owner.connect();
    expect(await tripsOf(async () => { resent = await send(owner, channel, "once", "c-once", again); })).toHaveLength(2);
    expect(resent).toMatchObject({ type: "chat_ack", messageId: first.messageId, duplicate: true });
    expect(await send(stranger, channel, "let me in")).toMatchObject({ type: "error", code: "not_found" });
    expect(await bucket()).toEqual(before);
    const stored = await storage.transact((tx) => tx.query(tables.chatMessages, "byConversation", { equals: [channel] }));
    expect(stored.map((message) => message.id)).toEqual([first.messageId]);
  });

  it("should ask for a DM's reads at once: all in its first message, then COMMIT", async () => {
    await using w = await chatServer({ storage, chatRate });
    const [me, pal] = await Promise.all([w.account(), w.account()]);
    // The recipient, the friendship and blocks either way are named by the channel: read with the rest.
    expect(await twoSends(me, pal, `dm:${pal.id}`, dmKey(me.id, pal.id))).toEqual([2, 2]);
  });
});

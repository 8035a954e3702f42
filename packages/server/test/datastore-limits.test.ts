import { describe, expect, it } from "vitest";
import { Code, tables } from "@playfield/core";
import { expectError, testServer, TRANSPORTS, type TestServer } from "./fixtures.js";
import { as, seedGame, type SeededGame } from "./datastore-fixtures.js";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Stops the clock at the start of a minute, so budget windows are where the test says. */
function freezeAtMinute(t: TestServer): void {
  t.server.clock.set(Date.UTC(2026, 5, 1, 12, 0, 0));
  t.server.clock.freeze();
}

/** Fresh game tokens for every player of a game (after the clock moved far). */
async function rejoin(t: TestServer, game: SeededGame): Promise<void> {
  for (const p of game.players) p.token = await t.server.seed.gameToken(p.user, { sessionId: game.sessionId, experienceId: game.experienceId });
}

describe.each(TRANSPORTS)("DatastoreService limits (%s)", (kind) => {
  describe("request budget", () => {
    it("should allow base + per-player calls a minute, then answer resource_exhausted and write nothing", async () => {
      await using t = await testServer(kind, { datastore: { requestsPerMinute: 5, requestsPerPlayer: 2 } });
      freezeAtMinute(t);
      const game = await seedGame(t, { count: 1 });
      const [p] = game.players;
      const ds = game.client.datastore;
      // One player in the experience's sessions: 5 + 2 = 7 calls this minute, of every method.
      await ds.set({ key: "a", value: "1" }, as(p!));
      await ds.get({ key: "a" }, as(p!));
      await ds.update({ key: "b", patch: "{}" }, as(p!));
      await ds.listKeys({}, as(p!));
      await ds.incrementOrdered({ delta: 1 }, as(p!));
      await ds.listOrdered({}, as(p!));
      await ds.delete({ key: "b" }, as(p!));
      await expectError(ds.set({ key: "c", value: "1" }, as(p!)), Code.ResourceExhausted, /used its 7 calls for this minute; try again in 60 s/);
      await expectError(ds.get({ key: "a" }, as(p!)), Code.ResourceExhausted);
      t.server.clock.advance(MINUTE);
      await rejoin(t, game);
      expect((await ds.get({ key: "c" }, as(p!))).found).toBe(false);
    });

    it("should raise the budget with every player in the experience's sessions", async () => {
      await using t = await testServer(kind, { datastore: { requestsPerMinute: 1, requestsPerPlayer: 2 } });
      freezeAtMinute(t);
      const game = await seedGame(t, { count: 1 });
      await seedGame(t, { count: 2, experienceId: game.experienceId });
      // Three players in two sessions: 1 + 3 × 2 = 7.
      for (let i = 0; i < 7; i++) await game.client.datastore.get({ key: "k" }, as(game.players[0]!));
      await expectError(game.client.datastore.get({ key: "k" }, as(game.players[0]!)), Code.ResourceExhausted, /used its 7 calls/);
    });

    it("should count each experience on its own", async () => {
      await using t = await testServer(kind, { datastore: { requestsPerMinute: 0, requestsPerPlayer: 1 } });
      freezeAtMinute(t);
      const a = await seedGame(t, { count: 1 });
      const b = await seedGame(t, { count: 1 });
      await a.client.datastore.get({ key: "k" }, as(a.players[0]!));
      await expectError(a.client.datastore.get({ key: "k" }, as(a.players[0]!)), Code.ResourceExhausted);
      await expect(b.client.datastore.get({ key: "k" }, as(b.players[0]!))).resolves.toMatchObject({ found: false });
    });
  });

  describe("stored bytes", () => {
    it("should refuse a write past the cap, allow shrinking and deleting, and raise the cap per player seen", async () => {
      await using t = await testServer(kind, { datastore: { storedBytes: 100, storedBytesPerPlayer: 20 } });
      const game = await seedGame(t, { count: 2 });
      const [p, q] = game.players;
      const ds = game.client.datastore;
      // One player seen: cap 120 bytes of keys and values.
      const hundred = JSON.stringify("x".repeat(98));
      expect((await ds.set({ key: "k", value: hundred }, as(p!))).ok).toBe(true);
      expect((await ds.set({ key: "j", value: "1" }, as(p!))).ok).toBe(true);
      await expectError(ds.set({ key: "big", value: JSON.stringify("y".repeat(30)) }, as(p!)), Code.ResourceExhausted, /stores 103 of its 120 bytes/);
      expect((await ds.get({ key: "big" }, as(p!))).found).toBe(false);
      expect((await ds.set({ key: "k", value: "2" }, as(p!))).version).toBe(2);
      expect((await ds.set({ key: "big", value: JSON.stringify("y".repeat(30)) }, as(p!))).ok).toBe(true);
      await expectError(ds.update({ key: "obj", patch: JSON.stringify({ more: "z".repeat(80) }) }, as(p!)), Code.ResourceExhausted);
      expect((await ds.delete({ key: "big" }, as(p!))).found).toBe(true);
      await expectError(ds.set({ key: "k", value: JSON.stringify("x".repeat(130)) }, as(p!)), Code.ResourceExhausted, /of its 120 bytes/);
      // A second player seen raises the cap to 140.
      await ds.get({ key: "k" }, as(q!));
      expect((await ds.set({ key: "k", value: JSON.stringify("x".repeat(130)) }, as(p!))).ok).toBe(true);
    });
  });

  describe("usage in shards", () => {
    it("should count every player's calls and bytes in one budget and one cap, and carry over the usage row of earlier versions", async () => {
      await using t = await testServer(kind, { datastore: { requestsPerMinute: 20, requestsPerPlayer: 0, storedBytes: 200, storedBytesPerPlayer: 0 } });
      freezeAtMinute(t);
      const game = await seedGame(t, { count: 6 });
      const ds = game.client.datastore;
      // The one row an earlier version kept: 4 calls this minute, 150 bytes stored, 2 players seen.
      await t.server.deps.storage.transact((tx) => tx.put(tables.datastoreUsage, {
        experienceId: game.experienceId, windowStart: Date.UTC(2026, 5, 1, 12, 0, 0), requests: 4, storedBytes: 150, playersSeen: 2,
      }));
      // Six players write 5 bytes each ("k" + "1234"): 180 bytes, under the cap of 200.
      for (const p of game.players) expect((await ds.set({ key: "k", value: "1234" }, as(p))).ok).toBe(true);
      // Their shards and the old row add up: 185 would fit, 201 would not.
      await expectError(ds.set({ key: "kk", value: JSON.stringify("x".repeat(17)) }, as(game.players[0]!)), Code.ResourceExhausted, /stores 180 of its 200 bytes; the write needs 21 more/);
      // A player may free bytes another player's call stored.
      expect((await ds.delete({ key: "k", userId: game.players[1]!.user.userId }, as(game.players[1]!))).found).toBe(true);
      expect((await ds.set({ key: "kk", value: JSON.stringify("x".repeat(15)) }, as(game.players[0]!))).ok).toBe(true);
      // 4 old calls + 6 + 1 refused (not counted) + 1 + 1 = 12 so far; 8 more fit, whoever makes them.
      for (let i = 0; i < 8; i++) await ds.get({ key: "k" }, as(game.players[i % 6]!));
      await expectError(ds.get({ key: "k" }, as(game.players[5]!)), Code.ResourceExhausted, /used its 20 calls for this minute/);
      // Gets are counted in the server's process and written in the background; idle (a shutdown) writes them now.
      await t.server.lifecycle.idle();
      const shards = await t.server.deps.storage.transact((tx) => tx.query(tables.datastoreUsageShards, "byExperience", { equals: [game.experienceId] }));
      expect(shards.length).toBeGreaterThan(1);
      expect(shards.reduce((sum, row) => sum + row.requests, 0)).toBe(16);
      expect(shards.reduce((sum, row) => sum + row.playersSeen, 0)).toBe(6);
    });
  });

  describe("reading calls counted in the process", () => {
    it("should count them exactly, whether the background write or a write takes them, and lose none to a refused write", async () => {
      await using t = await testServer(kind, { datastore: { requestsPerMinute: 13, requestsPerPlayer: 0 } });
      freezeAtMinute(t);
      const game = await seedGame(t, { count: 2 });
      const [p, q] = game.players;
      const ds = game.client.datastore;
      const written = () => t.server.deps.storage.transact(async (tx) => (await tx.query(tables.datastoreUsageShards, "byExperience", { equals: [game.experienceId] }))
        .reduce((sum, row) => sum + row.requests, 0));
      await ds.set({ key: "k", value: "1" }, as(p!));
      for (let i = 0; i < 3; i++) await ds.get({ key: "k" }, as(p!));
      // Written by the background write (every COUNTS_WRITE_MS), no shutdown asked for.
      await expect.poll(written, { timeout: 2_000, interval: 20 }).toBe(4);
      for (let i = 0; i < 2; i++) await ds.listKeys({}, as(p!));
      // Refused after its budget check, which counted the 2 pending calls: not counted, and they stay counted.
      await expectError(ds.set({ key: "k", value: "2", userId: p!.userId }, as(q!)), Code.PermissionDenied);
      // A write that changes no stored bytes (a value of the same length) has only its count to write: counted in the process too.
      await ds.set({ key: "k", value: "3" }, as(p!));
      await expect.poll(written, { timeout: 2_000, interval: 20 }).toBe(7);
      // A write that changes them writes its shard row, and takes the pending calls along: 7 + 2 + 1.
      for (let i = 0; i < 2; i++) await ds.listKeys({}, as(p!));
      await ds.set({ key: "k", value: "33" }, as(p!));
      expect(await written()).toBe(10);
      for (let i = 0; i < 3; i++) await ds.listOrdered({}, as(p!));
      await expectError(ds.get({ key: "k" }, as(p!)), Code.ResourceExhausted, /used its 13 calls for this minute/);
      await expectError(ds.set({ key: "k", value: "4" }, as(p!)), Code.ResourceExhausted, /used its 13 calls for this minute/);
      await t.server.lifecycle.idle();
      expect(await written()).toBe(13);
    });
  });

  describe("old values", () => {
    it("should keep overwritten and deleted values for 30 days, newest first, then purge them", async () => {
      await using t = await testServer(kind);
      freezeAtMinute(t);
      const game = await seedGame(t, { count: 1 });
      const [p] = game.players;
      const ds = game.client.datastore;
      await ds.set({ key: "save", value: "1" }, as(p!));
      await ds.update({ key: "save", patch: "{}" }, as(p!)).catch(() => undefined);
      await ds.set({ key: "save", value: "{\"v\":2}" }, as(p!));
      await ds.delete({ key: "save" }, as(p!));
      const { retentionMs } = t.server.deps.config.datastore;
      expect(retentionMs).toBe(30 * DAY);
      const address = { experienceId: game.experienceId, userId: p!.userId, key: "save" };
      const kept = await t.server.operator.datastore.oldValues(address);
      expect(kept.map((row) => [row.version, row.value, row.deleted])).toEqual([[2, "{\"v\":2}", true], [1, "1", false]]);

      t.server.clock.advance(30 * DAY - 1);
      expect(await t.server.operator.datastore.oldValues(address)).toHaveLength(2);
      t.server.clock.advance(1);
      expect(await t.server.operator.datastore.oldValues(address)).toEqual([]);
      // The next write purges them from storage.
      await rejoin(t, game);
      await ds.set({ key: "other", value: "1" }, as(p!));
      const left = await t.server.deps.storage.transact((tx) => tx.count(tables.datastoreHistory, "byReplacedAt"));
      expect(left).toBe(0);
    });
  });
});

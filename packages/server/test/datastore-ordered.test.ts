import { describe, expect, it } from "vitest";
import { Code } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { as, seedGame } from "./datastore-fixtures.js";

describe.each(TRANSPORTS)("DatastoreService ordered stores (%s)", (kind) => {
  describe("incrementOrdered", () => {
    it("should create the key at 0, add delta, and default the key to the player's own user id", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      expect(await client.datastore.incrementOrdered({ store: "wins", delta: 3 }, as(p!))).toEqual({ value: 3 });
      expect(await client.datastore.incrementOrdered({ store: "wins", key: p!.userId, delta: -5 }, as(p!))).toEqual({ value: -2 });
      expect(await client.datastore.incrementOrdered({ store: "wins", delta: 0 }, as(p!))).toEqual({ value: -2 });
      expect((await client.datastore.listOrdered({ store: "wins" }, as(p!))).entries).toEqual([{ key: p!.userId, value: -2, rank: 1 }]);
    });

    it("should accept int64 deltas as strings and refuse leaving the safe integer range, writing nothing", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      const big = Number.MAX_SAFE_INTEGER - 1;
      const res = await t.fetch(`${t.baseUrl}/svc.platform.v1.DatastoreService/IncrementOrdered`, {
        method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${p!.token}` }, body: JSON.stringify({ delta: String(big) }),
      });
      expect(await res.json()).toEqual({ value: String(big) });
      await expectError(client.datastore.incrementOrdered({ delta: 2 }, as(p!)), Code.FailedPrecondition, /^delta: /);
      expect(await client.datastore.incrementOrdered({ delta: 1 }, as(p!))).toEqual({ value: big + 1 });
    });

    it("should keep ordered stores apart from key-value stores of the same name", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      await client.datastore.incrementOrdered({ store: "s", key: p!.userId, delta: 1 }, as(p!));
      expect((await client.datastore.get({ store: "s", key: p!.userId }, as(p!))).found).toBe(false);
    });
  });

  describe("listOrdered", () => {
    it("should list the top entries descending, ties by key ascending, with ranks, offset and limit", async () => {
      await using t = await testServer(kind);
      const { client, players: [host] } = await seedGame(t, { count: 1 });
      const scores: [string, number][] = [["dora", 50], ["bob", 70], ["cy", 50], ["al", 90], ["eve", 10], ["abe", 50]];
      for (const [key, delta] of scores) await client.datastore.incrementOrdered({ store: "board", key, delta }, as(host!));
      const top = await client.datastore.listOrdered({ store: "board" }, as(host!));
      expect(top.entries.map((e) => [e.key, e.value, e.rank])).toEqual([
        ["al", 90, 1], ["bob", 70, 2], ["abe", 50, 3], ["cy", 50, 4], ["dora", 50, 5], ["eve", 10, 6],
      ]);
      const page = await client.datastore.listOrdered({ store: "board", offset: 2, limit: 2 }, as(host!));
      expect(page.entries.map((e) => [e.key, e.rank])).toEqual([["abe", 3], ["cy", 4]]);
      const bottom = await client.datastore.listOrdered({ store: "board", ascending: true, limit: 4 }, as(host!));
      expect(bottom.entries.map((e) => [e.key, e.rank])).toEqual([["eve", 1], ["abe", 2], ["cy", 3], ["dora", 4]]);
      expect((await client.datastore.listOrdered({ store: "board", offset: 6 }, as(host!))).entries).toEqual([]);
    });

    it("should answer 10 entries by default and refuse a limit over 100 or a negative offset", async () => {
      await using t = await testServer(kind);
      const { client, players: [host] } = await seedGame(t, { count: 1 });
      for (let i = 0; i < 12; i++) await client.datastore.incrementOrdered({ key: `k${i}`, delta: i }, as(host!));
      const top = await client.datastore.listOrdered({}, as(host!));
      expect(top.entries.map((e) => e.value)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
      await expectError(client.datastore.listOrdered({ limit: 101 }, as(host!)), Code.InvalidArgument, /^limit: at most 100/);
      await expectError(client.datastore.listOrdered({ offset: -1 }, as(host!)), Code.InvalidArgument, /^offset: /);
    });

    it("should list only the token's experience and store", async () => {
      await using t = await testServer(kind);
      const a = await seedGame(t, { count: 1 });
      const b = await seedGame(t, { count: 1 });
      await a.client.datastore.incrementOrdered({ delta: 5 }, as(a.players[0]!));
      await a.client.datastore.incrementOrdered({ store: "other", delta: 5 }, as(a.players[0]!));
      expect((await b.client.datastore.listOrdered({}, as(b.players[0]!))).entries).toEqual([]);
      expect((await a.client.datastore.listOrdered({}, as(a.players[0]!))).entries).toHaveLength(1);
    });
  });
});

import { describe, expect, it } from "vitest";
import { Code, tables } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { as, seedGame } from "./datastore-fixtures.js";

describe.each(TRANSPORTS)("DatastoreService entries (%s)", (kind) => {
  describe("auth", () => {
    it("should refuse no token, an access token and a scoped token", async () => {
      await using t = await testServer(kind);
      const { client } = await seedGame(t, { count: 1 });
      const user = await t.server.seed.user();
      await expectError(client.datastore.get({ key: "k" }), Code.Unauthenticated, /game token/);
      await expectError(client.datastore.get({ key: "k" }, { token: user.accessToken }), Code.PermissionDenied, /game token/);
      const scoped = await t.server.seed.scopedToken(user, "studio");
      await expectError(client.datastore.set({ key: "k", value: "1" }, { token: scoped }), Code.PermissionDenied);
    });

    it("should answer permission_denied once the player is no longer in the session, and write nothing", async () => {
      await using t = await testServer(kind);
      const { client, players: [p], sessionId, experienceId } = await seedGame(t, { count: 1 });
      await client.datastore.set({ key: "k", value: "1" }, as(p!));
      await t.server.deps.storage.transact((tx) => tx.delete(tables.sessionMembers, `${sessionId}:${p!.userId}`));
      await expectError(client.datastore.set({ key: "k", value: "2" }, as(p!)), Code.PermissionDenied, /no longer in this game session/);
      const again = await t.server.seed.gameToken(p!.user, { sessionId, experienceId });
      expect((await client.datastore.get({ key: "k" }, { token: again })).value).toBe("1");
    });

    it("should reach only the token's own experience", async () => {
      await using t = await testServer(kind);
      const a = await seedGame(t, { count: 1 });
      const tokenB = await t.server.seed.gameToken(a.players[0]!.user, { experienceId: t.server.deps.ids.id("exp") });
      await a.client.datastore.set({ key: "save", value: "{\"level\":3}" }, as(a.players[0]!));
      const inB = await a.client.datastore.get({ key: "save" }, { token: tokenB });
      expect(inB).toMatchObject({ found: false, version: 0 });
    });
  });

  describe("get and set", () => {
    it("should read a never-written key as not found at version 0", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      expect(await client.datastore.get({ key: "nothing" }, as(p!))).toEqual({ found: false, value: "", version: 0, updatedAt: "" });
    });

    it("should write unconditionally without ifVersion, raising the version each time", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      const before = t.server.clock.now();
      expect(await client.datastore.set({ key: "save", value: "{\"a\":1}" }, as(p!))).toEqual({ ok: true, version: 1, value: "" });
      expect(await client.datastore.set({ key: "save", value: "[1,2]" }, as(p!))).toMatchObject({ ok: true, version: 2 });
      const got = await client.datastore.get({ key: "save" }, as(p!));
      expect(got).toMatchObject({ found: true, value: "[1,2]", version: 2 });
      expect(Date.parse(got.updatedAt)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(got.updatedAt)).toBeLessThanOrEqual(t.server.clock.now());
    });

    it("should write with ifVersion only at the current version, else answer the current one and write nothing", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      expect(await client.datastore.set({ key: "k", value: "1", ifVersion: true, version: 3 }, as(p!))).toEqual({ ok: false, version: 0, value: "" });
      expect(await client.datastore.set({ key: "k", value: "1", ifVersion: true, version: 0 }, as(p!))).toMatchObject({ ok: true, version: 1 });
      expect(await client.datastore.set({ key: "k", value: "2", ifVersion: true, version: 0 }, as(p!))).toEqual({ ok: false, version: 1, value: "1" });
      expect(await client.datastore.set({ key: "k", value: "2", ifVersion: true, version: 1 }, as(p!))).toMatchObject({ ok: true, version: 2 });
      expect(await client.datastore.get({ key: "k" }, as(p!))).toMatchObject({ value: "2", version: 2 });
    });

    it("should treat an empty store as default and keep stores, scopes and players apart", async () => {
      await using t = await testServer(kind);
      const { client, players: [a, b] } = await seedGame(t);
      await client.datastore.set({ key: "k", value: "\"mine\"" }, as(a!));
      expect((await client.datastore.get({ store: "default", key: "k" }, as(a!))).value).toBe("\"mine\"");
      expect((await client.datastore.get({ store: "other", key: "k" }, as(a!))).found).toBe(false);
      expect((await client.datastore.get({ scope: "global", key: "k" }, as(a!))).found).toBe(false);
      expect((await client.datastore.get({ key: "k" }, as(b!))).found).toBe(false);
      expect((await client.datastore.get({ key: "k", userId: a!.userId }, as(b!))).value).toBe("\"mine\"");
    });

    it("should refuse bad stores, keys, scopes and values with invalid_argument and write nothing", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      const c = client.datastore;
      await expectError(c.set({ store: "no spaces", key: "k", value: "1" }, as(p!)), Code.InvalidArgument, /^store: /);
      await expectError(c.set({ store: "x".repeat(51), key: "k", value: "1" }, as(p!)), Code.InvalidArgument, /^store: /);
      await expectError(c.set({ key: "", value: "1" }, as(p!)), Code.InvalidArgument, /^key: /);
      await expectError(c.set({ key: "k".repeat(129), value: "1" }, as(p!)), Code.InvalidArgument, /^key: /);
      await expectError(c.set({ scope: "team", key: "k", value: "1" }, as(p!)), Code.InvalidArgument, /^scope: /);
      await expectError(c.set({ scope: "global", userId: p!.userId, key: "k", value: "1" }, as(p!)), Code.InvalidArgument, /^userId: /);
      await expectError(c.set({ key: "k", value: "{not json" }, as(p!)), Code.InvalidArgument, /^value: must be JSON/);
      await expectError(c.set({ key: "k", value: "" }, as(p!)), Code.InvalidArgument, /^value: /);
      expect((await c.get({ key: "k".repeat(128) }, as(p!))).found).toBe(false);
      expect((await c.get({ key: "k" }, as(p!))).found).toBe(false);
    });

    it("should refuse a value over 4 MB of UTF-8, even under 4 M characters", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      // 1.5 M characters of 3 bytes each: 4.5 MB.
      const big = JSON.stringify("€".repeat(1_500_000));
      await expectError(client.datastore.set({ key: "big", value: big }, as(p!)), Code.InvalidArgument, /^value: at most 4 MB/);
      const fits = JSON.stringify("x".repeat(4 * 1024 * 1024 - 2));
      expect((await client.datastore.set({ key: "fits", value: fits }, as(p!))).ok).toBe(true);
      expect((await client.datastore.get({ key: "big" }, as(p!))).found).toBe(false);
    });
  });

  describe("update", () => {
    it("should merge top-level fields, remove nulls and answer the merged value and version", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      await client.datastore.set({ key: "save", value: JSON.stringify({ coins: 5, inv: { sword: 1 }, hat: "red" }) }, as(p!));
      const out = await client.datastore.update({ key: "save", patch: JSON.stringify({ inv: { bow: 1 }, hat: null, level: 2 }) }, as(p!));
      expect(JSON.parse(out.value)).toEqual({ coins: 5, inv: { bow: 1 }, level: 2 });
      expect(out.version).toBe(2);
      expect(JSON.parse((await client.datastore.get({ key: "save" }, as(p!))).value)).toEqual(JSON.parse(out.value));
    });

    it("should start a missing key from {}", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      expect(await client.datastore.update({ key: "new", patch: "{\"a\":1,\"b\":null}" }, as(p!))).toEqual({ value: "{\"a\":1}", version: 1 });
    });

    it("should refuse a stored value that is not an object with failed_precondition, and a patch that is not one with invalid_argument", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      await client.datastore.set({ key: "list", value: "[1]" }, as(p!));
      await expectError(client.datastore.update({ key: "list", patch: "{\"a\":1}" }, as(p!)), Code.FailedPrecondition, /^key: the stored value is not a JSON object/);
      for (const patch of ["[1]", "3", "null", "{bad"]) {
        await expectError(client.datastore.update({ key: "list", patch }, as(p!)), Code.InvalidArgument, /^patch: /);
      }
      expect(await client.datastore.get({ key: "list" }, as(p!))).toMatchObject({ value: "[1]", version: 1 });
    });

    it("should refuse a merged value over 4 MB and write nothing", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      const half = "x".repeat(2_200_000);
      await client.datastore.update({ key: "k", patch: JSON.stringify({ a: half }) }, as(p!));
      await expectError(client.datastore.update({ key: "k", patch: JSON.stringify({ b: half }) }, as(p!)), Code.InvalidArgument, /^patch: at most 4 MB/);
      expect((await client.datastore.get({ key: "k" }, as(p!))).version).toBe(1);
    });
  });

  describe("delete", () => {
    it("should answer found, and read as never written afterwards", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      expect(await client.datastore.delete({ key: "k" }, as(p!))).toEqual({ found: false });
      await client.datastore.set({ key: "k", value: "1" }, as(p!));
      expect(await client.datastore.delete({ key: "k" }, as(p!))).toEqual({ found: true });
      expect(await client.datastore.get({ key: "k" }, as(p!))).toMatchObject({ found: false, version: 0 });
      expect(await client.datastore.delete({ key: "k" }, as(p!))).toEqual({ found: false });
    });

    it("should give a deleted key, written again, a version above every version it had", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      await client.datastore.set({ key: "k", value: "1" }, as(p!));
      await client.datastore.set({ key: "k", value: "2" }, as(p!));
      await client.datastore.delete({ key: "k" }, as(p!));
      // Absent again: version 0 matches, and the new version is 3, never a reused 1.
      expect(await client.datastore.set({ key: "k", value: "3", ifVersion: true, version: 0 }, as(p!))).toMatchObject({ ok: true, version: 3 });
      expect(await client.datastore.set({ key: "k", value: "4", ifVersion: true, version: 1 }, as(p!))).toMatchObject({ ok: false, version: 3 });
    });
  });

  describe("listKeys", () => {
    it("should list keys in key order, filtered by prefix, a page at a time", async () => {
      await using t = await testServer(kind);
      const { client, players: [p] } = await seedGame(t, { count: 1 });
      for (const key of ["b", "a", "item:2", "item:10", "item:1", "itez", "z"]) await client.datastore.set({ key, value: "0" }, as(p!));
      expect(await client.datastore.listKeys({}, as(p!))).toEqual({ keys: ["a", "b", "item:1", "item:10", "item:2", "itez", "z"], next: "" });
      const first = await client.datastore.listKeys({ prefix: "item:", limit: 2 }, as(p!));
      expect(first).toEqual({ keys: ["item:1", "item:10"], next: "item:10" });
      expect(await client.datastore.listKeys({ prefix: "item:", limit: 2, after: first.next }, as(p!))).toEqual({ keys: ["item:2"], next: "" });
      expect(await client.datastore.listKeys({ prefix: "item:", limit: 1, after: "item:10" }, as(p!))).toEqual({ keys: ["item:2"], next: "" });
      expect(await client.datastore.listKeys({ after: "itez" }, as(p!))).toEqual({ keys: ["z"], next: "" });
      expect(await client.datastore.listKeys({ prefix: "nope" }, as(p!))).toEqual({ keys: [], next: "" });
    });

    it("should list one scope of one player, and refuse a limit over 1000", async () => {
      await using t = await testServer(kind);
      const { client, players: [a, b] } = await seedGame(t);
      await client.datastore.set({ key: "mine", value: "1" }, as(b!));
      await client.datastore.set({ key: "shared", scope: "global", value: "1" }, as(a!));
      expect((await client.datastore.listKeys({}, as(a!))).keys).toEqual([]);
      expect((await client.datastore.listKeys({ userId: b!.userId }, as(a!))).keys).toEqual(["mine"]);
      expect((await client.datastore.listKeys({ scope: "global" }, as(b!))).keys).toEqual(["shared"]);
      await expectError(client.datastore.listKeys({ limit: 1001 }, as(a!)), Code.InvalidArgument, /^limit: at most 1000/);
    });
  });
});

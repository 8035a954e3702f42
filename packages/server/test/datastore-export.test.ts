import { describe, expect, it } from "vitest";
import { Code } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { as, seedGame } from "./datastore-fixtures.js";

describe.each(TRANSPORTS)("DatastoreService.exportMyData (%s)", (kind) => {
  it("should answer the caller's user-scope entries of every experience and their own ordered keys", async () => {
    await using t = await testServer(kind);
    const a = await seedGame(t, { count: 2 });
    const [authority, me] = a.players;
    const bExperience = t.server.deps.ids.id("exp");
    const meInB = { ...me!, token: await t.server.seed.gameToken(me!.user, { experienceId: bExperience }) };
    const ds = a.client.datastore;
    await ds.set({ key: "save", value: "{\"level\":4}" }, as(me!));
    await ds.set({ store: "inv", userId: me!.userId, key: "hat", value: "\"red\"" }, as(authority!));
    await ds.set({ key: "save", value: "1" }, as(meInB));
    await ds.set({ scope: "global", key: "config", value: "{}" }, as(authority!));
    await ds.set({ key: "save", value: "{}" }, as(authority!));
    await ds.incrementOrdered({ store: "wins", delta: 3 }, as(me!));
    await ds.incrementOrdered({ store: "wins", key: "team", delta: 3 }, as(authority!));
    await ds.incrementOrdered({ store: "wins", delta: 9 }, as(authority!));

    const out = await t.client().datastore.exportMyData({}, { token: me!.user.accessToken });
    const entries = out.entries.map(({ updatedAt, ...rest }) => {
      expect(Number.isNaN(Date.parse(updatedAt))).toBe(false);
      return rest;
    });
    expect(entries).toHaveLength(3);
    expect(entries).toEqual(expect.arrayContaining([
      { experienceId: a.experienceId, store: "default", scope: "user", key: "save", value: "{\"level\":4}", version: 1 },
      { experienceId: a.experienceId, store: "inv", scope: "user", key: "hat", value: "\"red\"", version: 1 },
      { experienceId: bExperience, store: "default", scope: "user", key: "save", value: "1", version: 1 },
    ]));
    expect(out.ordered.map(({ updatedAt: _, ...rest }) => rest)).toEqual([{ experienceId: a.experienceId, store: "wins", key: me!.userId, value: 3 }]);
  });

  it("should answer empty lists for an account no game stored anything about", async () => {
    await using t = await testServer(kind);
    const user = await t.server.seed.user();
    expect(await t.client().datastore.exportMyData({}, { token: user.accessToken })).toEqual({ entries: [], ordered: [] });
  });

  it("should refuse guests, game tokens, scoped tokens and callers with no token", async () => {
    await using t = await testServer(kind);
    const guest = await t.server.seed.guest();
    const { players: [p], client } = await seedGame(t, { count: 1 });
    await expectError(client.datastore.exportMyData({}, { token: guest.accessToken }), Code.PermissionDenied, /guests/);
    await expectError(client.datastore.exportMyData({}, as(p!)), Code.PermissionDenied, /game token/);
    await expectError(client.datastore.exportMyData({}, { token: await t.server.seed.scopedToken(p!.user, "studio") }), Code.PermissionDenied);
    await expectError(client.datastore.exportMyData({}), Code.Unauthenticated);
  });
});

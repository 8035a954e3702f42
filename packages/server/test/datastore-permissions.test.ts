import { describe, expect, it } from "vitest";
import { Code } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { as, seedGame } from "./datastore-fixtures.js";

describe.each(TRANSPORTS)("DatastoreService write permission (%s)", (kind) => {
  it("should let a player write only their own user scope and ordered key", async () => {
    await using t = await testServer(kind);
    const { client, players: [, p, q] } = await seedGame(t, { count: 3 });
    const ds = client.datastore;
    expect((await ds.set({ key: "save", value: "1" }, as(p!))).ok).toBe(true);
    expect((await ds.incrementOrdered({ key: p!.userId, delta: 1 }, as(p!))).value).toBe(1);
    await expectError(ds.set({ userId: q!.userId, key: "save", value: "1" }, as(p!)), Code.PermissionDenied, /^userId: only the session's authority/);
    await expectError(ds.update({ userId: q!.userId, key: "save", patch: "{}" }, as(p!)), Code.PermissionDenied, /^userId: /);
    await expectError(ds.delete({ userId: q!.userId, key: "save" }, as(p!)), Code.PermissionDenied, /^userId: /);
    await expectError(ds.set({ scope: "global", key: "config", value: "1" }, as(p!)), Code.PermissionDenied, /^scope: only the session's authority/);
    await expectError(ds.incrementOrdered({ key: q!.userId, delta: 1 }, as(p!)), Code.PermissionDenied, /^key: only the session's authority/);
    await expectError(ds.incrementOrdered({ key: "team-red", delta: 1 }, as(p!)), Code.PermissionDenied, /^key: /);
    expect((await ds.get({ userId: q!.userId, key: "save" }, as(p!))).found).toBe(false);
    expect((await ds.listOrdered({}, as(p!))).entries).toEqual([{ key: p!.userId, value: 1, rank: 1 }]);
  });

  it("should make the earliest member the authority of a session with no host", async () => {
    await using t = await testServer(kind);
    const { client, players: [first, p] } = await seedGame(t, { count: 2 });
    const ds = client.datastore;
    expect((await ds.set({ scope: "global", key: "config", value: "{\"mode\":\"ctf\"}" }, as(first!))).ok).toBe(true);
    expect((await ds.set({ userId: p!.userId, key: "save", value: "7" }, as(first!))).ok).toBe(true);
    expect((await ds.update({ userId: p!.userId, key: "inv", patch: "{\"a\":1}" }, as(first!))).version).toBe(1);
    expect((await ds.incrementOrdered({ key: "team-red", delta: 2 }, as(first!))).value).toBe(2);
    expect((await ds.delete({ userId: p!.userId, key: "save" }, as(first!))).found).toBe(true);
    // Any member reads any scope.
    expect((await ds.get({ scope: "global", key: "config" }, as(p!))).value).toBe("{\"mode\":\"ctf\"}");
    expect((await ds.get({ userId: p!.userId, key: "inv" }, as(p!))).value).toBe("{\"a\":1}");
  });

  it("should refuse the authority a player who is not in the session", async () => {
    await using t = await testServer(kind);
    const game = await seedGame(t, { count: 1 });
    const elsewhere = await seedGame(t, { count: 1, experienceId: game.experienceId });
    const [first] = game.players;
    const stranger = elsewhere.players[0]!;
    await expectError(game.client.datastore.set({ userId: stranger.userId, key: "k", value: "1" }, as(first!)), Code.PermissionDenied, /not in this session/);
    // Reading is open to any member of the experience.
    await game.client.datastore.set({ key: "k", value: "2" }, as(stranger));
    expect((await game.client.datastore.get({ userId: stranger.userId, key: "k" }, as(first!))).value).toBe("2");
  });

  it("should make the host the authority of a peer session, and the earliest member when the host is gone", async () => {
    await using t = await testServer(kind);
    const { client, players: [first, host] } = await seedGame(t, { count: 2, tier: "peer", host: 1 });
    await expectError(client.datastore.set({ scope: "global", key: "g", value: "1" }, as(first!)), Code.PermissionDenied, /^scope: /);
    expect((await client.datastore.set({ scope: "global", key: "g", value: "1" }, as(host!))).ok).toBe(true);
    expect((await client.datastore.set({ userId: first!.userId, key: "k", value: "1" }, as(host!))).ok).toBe(true);
  });

  it("should make the player of a solo session its authority", async () => {
    await using t = await testServer(kind);
    const { client, players: [solo] } = await seedGame(t, { count: 1, tier: "solo" });
    expect((await client.datastore.set({ scope: "global", key: "g", value: "1" }, as(solo!))).ok).toBe(true);
    expect((await client.datastore.incrementOrdered({ key: "npc", delta: 1 }, as(solo!))).value).toBe(1);
  });

  it("should give dedicated and edge sessions no player host: the earliest member decides", async () => {
    await using t = await testServer(kind);
    const { client, players: [first, second] } = await seedGame(t, { count: 2, tier: "dedicated" });
    expect((await client.datastore.set({ scope: "global", key: "g", value: "1" }, as(first!))).ok).toBe(true);
    await expectError(client.datastore.set({ scope: "global", key: "g", value: "2" }, as(second!)), Code.PermissionDenied);
  });
});

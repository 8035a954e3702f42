import { describe, expect, it } from "vitest";
import { Code } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { addExperience, player } from "./session-world.js";

/* The datastore end to end with game tokens from SessionService.Join: authority, Leave and heartbeat silence. */

describe.each(TRANSPORTS)("DatastoreService with joined players (%s)", (kind) => {
  it("should make the peer host the authority, and hand it over when the host leaves", async () => {
    await using t = await testServer(kind);
    const { experience } = await addExperience(t.server, { hostingTier: "peer" });
    const [ada, bob] = [await player(t), await player(t)];
    const a = await ada.client.session.join({ experienceId: experience.id, platform: "web" });
    const b = await bob.client.session.join({ experienceId: experience.id, platform: "web" });
    expect(b.sessionId).toBe(a.sessionId);
    expect(b.hostUserId).toBe(ada.userId);
    const ds = ada.client.datastore;
    expect((await ds.set({ scope: "global", key: "round", value: "1" }, { token: a.gameToken })).ok).toBe(true);
    expect((await ds.set({ userId: bob.userId, key: "save", value: "{\"hp\":9}" }, { token: a.gameToken })).ok).toBe(true);
    await expectError(ds.set({ scope: "global", key: "round", value: "2" }, { token: b.gameToken }), Code.PermissionDenied, /^scope: /);
    expect((await ds.get({ key: "save" }, { token: b.gameToken })).value).toBe("{\"hp\":9}");

    await ada.client.session.leave({ sessionId: a.sessionId });
    await expectError(ds.get({ scope: "global", key: "round" }, { token: a.gameToken }), Code.PermissionDenied, /no longer in this game session/);
    expect((await ds.set({ scope: "global", key: "round", value: "2" }, { token: b.gameToken })).version).toBe(2);
  });

  it("should make the player of a solo session its authority", async () => {
    await using t = await testServer(kind);
    const { experience } = await addExperience(t.server, { hostingTier: "solo" });
    const ada = await player(t);
    const joined = await ada.client.session.join({ experienceId: experience.id });
    expect((await ada.client.datastore.incrementOrdered({ key: "boss", delta: 1 }, { token: joined.gameToken })).value).toBe(1);
  });

  it("should refuse a player silent past the heartbeat limit, before any sweep, and keep one who heartbeats", async () => {
    await using t = await testServer(kind);
    const { experience } = await addExperience(t.server, { hostingTier: "dedicated" });
    const [ada, bob] = [await player(t), await player(t)];
    const a = await ada.client.session.join({ experienceId: experience.id });
    const b = await bob.client.session.join({ experienceId: experience.id });
    await ada.client.datastore.set({ key: "k", value: "1" }, { token: a.gameToken });
    t.server.clock.advance(45_000);
    await bob.client.session.heartbeat({ sessionId: b.sessionId });
    t.server.clock.advance(20_000);
    await expectError(ada.client.datastore.get({ key: "k" }, { token: a.gameToken }), Code.PermissionDenied, /no longer in this game session/);
    expect((await bob.client.datastore.get({ key: "k", userId: ada.userId }, { token: b.gameToken })).value).toBe("1");
  });
});

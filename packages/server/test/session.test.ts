import type { SessionAllocator } from "../src/ports/allocator.js";
import { describe, expect, it } from "vitest";
import { Code, DatastoreService, tables, type ServerEventMap } from "@playfield/core";
import { authorize } from "../src/rpc/authorize.js";
import type { RealtimeEvent } from "../src/ports/realtime-hub.js";
import type { MemoryServer } from "@playfield/server-memory";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { addExperience, befriend, block, player, publishVersion, setWhoCanJoin } from "./session-world.js";

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;

/** Records the realtime events a user's (fake) connection receives. */
function listen(server: MemoryServer, userId: string): RealtimeEvent[] {
  const events: RealtimeEvent[] = [];
  server.deps.realtime.attach({ userId, send: (event) => events.push(event) });
  return events;
}

const gameMethod = DatastoreService.methods[Object.keys(DatastoreService.methods)[0] as keyof typeof DatastoreService.methods];

describe.each(TRANSPORTS)("SessionService (%s)", (kind) => {
  describe("join", () => {
    it("should start a peer session with the caller as host and a game token scoped to it", async () => {
      await using t = await testServer(kind);
      const { experience, version } = await addExperience(t.server, { hostingTier: "peer" });
      const ada = await player(t);
      const joined = await ada.client.session.join({ experienceId: experience.id, platform: "web", engineVersion: "1.0" });
      expect(joined.hostingTier).toBe("peer");
      expect(joined.hostUserId).toBe(ada.userId);
      expect(joined.placeVersionId).toBe(version!.id);
      expect(joined.contentUrl).toBe("https://cdn.test/web.json");
      expect(joined.connectUrl).toMatch(/^wss?:\/\/.+\/realtime$|^\/realtime$/);
      expect(joined.members.map((m) => m.id)).toEqual([ada.userId]);
      expect(claimsOf(joined.gameToken)).toMatchObject({ sub: ada.userId, sid: ada.deviceId, typ: "game", gsid: joined.sessionId, xid: experience.id });
      const caller = await authorize(t.server.deps, gameMethod, `Bearer ${joined.gameToken}`);
      expect(caller).toMatchObject({ kind: "game", sessionId: joined.sessionId, experienceId: experience.id });
    });

    it("should matchmake into the session with friends first, then the fullest with room", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { maxPlayers: 3 });
      const p = await Promise.all([1, 2, 3, 4, 5, 6].map(() => player(t)));
      const join = (i: number) => p[i]!.client.session.join({ experienceId: experience.id });
      const a = await join(0);
      expect((await join(1)).sessionId).toBe(a.sessionId);
      expect((await join(2)).sessionId).toBe(a.sessionId);
      const b = await join(3);
      expect(b.sessionId).not.toBe(a.sessionId);
      await p[0]!.client.session.leave({ sessionId: a.sessionId });
      // A has 2 members, B has 1: a friend of B's member goes to B all the same.
      await befriend(t.server, p[4]!.userId, p[3]!.userId);
      expect((await join(4)).sessionId).toBe(b.sessionId);
      // Now both have 2: the older session wins the tie.
      expect((await join(5)).sessionId).toBe(a.sessionId);
    });

    it("should always start a new session of one for a solo experience", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { hostingTier: "solo" });
      const ada = await player(t);
      const bob = await player(t);
      const first = await ada.client.session.join({ experienceId: experience.id });
      const second = await bob.client.session.join({ experienceId: experience.id });
      const again = await ada.client.session.join({ experienceId: experience.id });
      expect(new Set([first.sessionId, second.sessionId, again.sessionId]).size).toBe(3);
      expect(first.hostingTier).toBe("solo");
      expect(first.connectUrl).toBe("");
      expect(again.members.map((m) => m.id)).toEqual([ada.userId]);
      await expectError(bob.client.session.join({ experienceId: experience.id, sessionId: again.sessionId }), Code.FailedPrecondition, /^sessionId: a solo session/);
    });

    it("should join a given session when there is room and refuse a full one", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { maxPlayers: 2 });
      const [ada, bob, cy] = await Promise.all([player(t), player(t), player(t)]);
      const a = await ada.client.session.join({ experienceId: experience.id });
      // Join order is by join time (ties by user id): two joins in the same millisecond would order by their random ids.
      t.server.clock.advance(1);
      const b = await bob.client.session.join({ experienceId: experience.id, sessionId: a.sessionId });
      expect(b.sessionId).toBe(a.sessionId);
      expect(b.hostUserId).toBe(ada.userId);
      expect(b.members.map((m) => m.id)).toEqual([ada.userId, bob.userId]);
      await expectError(cy.client.session.join({ experienceId: experience.id, sessionId: a.sessionId }), Code.FailedPrecondition, /^sessionId: the session is full/);
      await expectError(cy.client.session.join({ experienceId: experience.id, sessionId: "gs_nope" }), Code.NotFound, /^sessionId: /);
    });

    it("should follow members' whoCanJoin settings and blocks", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server);
      const [ada, friend, stranger, blocked] = await Promise.all([player(t), player(t), player(t), player(t)]);
      const a = await ada.client.session.join({ experienceId: experience.id });
      await befriend(t.server, ada.userId, friend.userId);
      await setWhoCanJoin(t.server, ada.userId, "friends");
      await expectError(stranger.client.session.join({ experienceId: experience.id, sessionId: a.sessionId }), Code.PermissionDenied, /only friends/);
      expect((await friend.client.session.join({ experienceId: experience.id, sessionId: a.sessionId })).sessionId).toBe(a.sessionId);
      // whoCanJoin is about following: matchmaking may still place a stranger there, but never a blocked player.
      expect((await stranger.client.session.join({ experienceId: experience.id })).sessionId).toBe(a.sessionId);
      await stranger.client.session.leave({ sessionId: a.sessionId });
      await setWhoCanJoin(t.server, ada.userId, "everyone");
      await block(t.server, friend.userId, blocked.userId);
      await expectError(blocked.client.session.join({ experienceId: experience.id, sessionId: a.sessionId }), Code.PermissionDenied, /blocked/);
      expect((await blocked.client.session.join({ experienceId: experience.id })).sessionId).not.toBe(a.sessionId);
      await setWhoCanJoin(t.server, ada.userId, "nobody");
      await expectError(stranger.client.session.join({ experienceId: experience.id, sessionId: a.sessionId }), Code.PermissionDenied, /nobody/);
    });

    it("should refuse an engine below the version's minimum for the platform, naming it", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { engineMin: { web: "2.1", ios: "3.0" } });
      const ada = await player(t);
      await expectError(ada.client.session.join({ experienceId: experience.id, platform: "web", engineVersion: "2.0.9" }), Code.FailedPrecondition, /^engineVersion: web needs engine 2\.1 or later/);
      await expectError(ada.client.session.join({ experienceId: experience.id, platform: "ios" }), Code.FailedPrecondition, /3\.0/);
      expect((await ada.client.session.join({ experienceId: experience.id, platform: "web", engineVersion: "2.10" })).sessionId).toMatch(/^gs_/);
      expect((await ada.client.session.join({ experienceId: experience.id, platform: "linux", engineVersion: "" })).sessionId).toMatch(/^gs_/);
    });

    it("should answer the content URL of the platform's cook target", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { hostingTier: "solo" });
      const ada = await player(t);
      expect((await ada.client.session.join({ experienceId: experience.id, platform: "macos" })).contentUrl).toBe("https://cdn.test/desktop.json");
      expect((await ada.client.session.join({ experienceId: experience.id, platform: "android" })).contentUrl).toBe("https://cdn.test/mobile_low.json");
      expect((await ada.client.session.join({ experienceId: experience.id, platform: "web" })).contentUrl).toBe("https://cdn.test/web.json");
    });

    it("should let only the creator (and testers) join a draft or private experience", async () => {
      await using t = await testServer(kind);
      const creator = await player(t);
      const other = await player(t);
      for (const visibility of ["draft", "private"] as const) {
        const { experience } = await addExperience(t.server, { visibility, creatorId: creator.userId });
        await expectError(other.client.session.join({ experienceId: experience.id }), Code.NotFound, /^experienceId: no such experience/);
        expect((await creator.client.session.join({ experienceId: experience.id })).sessionId).toMatch(/^gs_/);
        await creator.client.catalog.addTester({ experienceId: experience.id, userId: other.userId });
        expect((await other.client.session.join({ experienceId: experience.id })).sessionId).toMatch(/^gs_/);
      }
      await expectError(other.client.session.join({ experienceId: "exp_missing" }), Code.NotFound, /^experienceId: /);
    });

    it("should refuse an experience with no live version", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { published: false });
      const ada = await player(t);
      await expectError(ada.client.session.join({ experienceId: experience.id }), Code.FailedPrecondition, /^experienceId: not published/);
    });

    it("should keep a running session on its version and matchmake newcomers onto the live one", async () => {
      await using t = await testServer(kind);
      const { experience, version } = await addExperience(t.server);
      const [ada, bob, cy] = await Promise.all([player(t), player(t), player(t)]);
      const old = await ada.client.session.join({ experienceId: experience.id });
      const v2 = await publishVersion(t.server, experience.id, 2);
      const fresh = await bob.client.session.join({ experienceId: experience.id });
      expect(fresh.sessionId).not.toBe(old.sessionId);
      expect(fresh.placeVersionId).toBe(v2.id);
      const follow = await cy.client.session.join({ experienceId: experience.id, sessionId: old.sessionId });
      expect(follow.placeVersionId).toBe(version!.id);
    });

    it("should take edge and dedicated addresses from the allocator", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { hostingTier: "edge" });
      const ada = await player(t);
      const joined = await ada.client.session.join({ experienceId: experience.id });
      expect(joined.connectUrl).toBe(`wss://edge.playfield.test/sessions/${joined.sessionId}`);
      expect(joined.hostUserId).toBe("");
      const released: string[] = [];
      // A deployment's fleet manager takes over from the default template (deps.sessions is the server's live setting).
      const allocator: SessionAllocator = { allocate: async (r) => `wss://fleet.test/${r.hostingTier}/${r.experienceId}`, release: (id) => released.push(id) };
      t.server.deps.sessions.allocator = allocator;
      const { experience: dedicated } = await addExperience(t.server, { hostingTier: "dedicated" });
      const d = await ada.client.session.join({ experienceId: dedicated.id });
      expect(d.connectUrl).toBe(`wss://fleet.test/dedicated/${dedicated.id}`);
      await ada.client.session.leave({ sessionId: d.sessionId });
      // The edge session closed when Ada moved on; the dedicated one when she left: both servers go back.
      expect(released).toEqual([joined.sessionId, d.sessionId]);
    });

    it("should record the visit and the play, and a retried join changes nothing", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server);
      const ada = await player(t);
      const first = await ada.client.session.join({ experienceId: experience.id });
      const retry = await ada.client.session.join({ experienceId: experience.id });
      expect(retry.sessionId).toBe(first.sessionId);
      t.server.clock.advance(30_000);
      await ada.client.session.leave({ sessionId: first.sessionId });
      const { row, plays } = await t.server.deps.storage.transact(async (tx) => ({
        row: await tx.get(tables.experiences, experience.id),
        plays: await tx.query(tables.plays, "byExperience", { equals: [experience.id] }),
      }));
      expect(row!.visits).toBe(1);
      expect(plays).toHaveLength(1);
      expect(plays[0]!.leftAt! - plays[0]!.joinedAt).toBeGreaterThanOrEqual(30_000);
      expect(plays[0]!.leftAt! - plays[0]!.joinedAt).toBeLessThan(35_000);
    });

    it("should move the caller out of the session they were in", async () => {
      await using t = await testServer(kind);
      const { experience: one } = await addExperience(t.server);
      const { experience: two } = await addExperience(t.server);
      const ada = await player(t);
      const first = await ada.client.session.join({ experienceId: one.id });
      await ada.client.session.join({ experienceId: two.id });
      await expectError(ada.client.session.getSession({ sessionId: first.sessionId }), Code.NotFound);
      await expectError(authorize(t.server.deps, gameMethod, `Bearer ${first.gameToken}`), Code.PermissionDenied);
    });

    it("should refuse a missing experience id as invalid", async () => {
      await using t = await testServer(kind);
      const ada = await player(t);
      await expectError(ada.client.session.join({ experienceId: "" }), Code.InvalidArgument, /experienceId/);
    });
  });

  describe("heartbeat", () => {
    it("should keep a member in and drop one silent for 60 s, closing an empty session", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server);
      const [ada, bob] = await Promise.all([player(t), player(t)]);
      const a = await ada.client.session.join({ experienceId: experience.id });
      await bob.client.session.join({ experienceId: experience.id });
      for (let i = 0; i < 5; i++) {
        t.server.clock.advance(45_000);
        expect((await ada.client.session.heartbeat({ sessionId: a.sessionId })).memberCount).toBe(i === 0 ? 2 : 1);
      }
      // Bob fell silent at the start: he was dropped and Ada hosts alone.
      await expectError(bob.client.session.heartbeat({ sessionId: a.sessionId }), Code.NotFound, /^sessionId: you are not in this session/);
      t.server.clock.advance(60_001);
      await expectError(ada.client.session.heartbeat({ sessionId: a.sessionId }), Code.NotFound);
      const row = await t.server.deps.storage.transact((tx) => tx.get(tables.gameSessions, a.sessionId));
      expect(row!.closedAt).not.toBeNull();
      expect((await ada.client.session.listSessions({ experienceId: experience.id })).sessions).toEqual([]);
    });
  });

  describe("leave", () => {
    it("should hand a peer host to the earliest remaining member and end the leaver's game token", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server);
      const [ada, bob, cy] = await Promise.all([player(t), player(t), player(t)]);
      const a = await ada.client.session.join({ experienceId: experience.id });
      t.server.clock.advance(1000);
      await bob.client.session.join({ experienceId: experience.id });
      t.server.clock.advance(1000);
      await cy.client.session.join({ experienceId: experience.id });
      const events = listen(t.server, cy.userId);
      await ada.client.session.leave({ sessionId: a.sessionId });
      const detail = await cy.client.session.getSession({ sessionId: a.sessionId });
      expect(detail.members.filter((m) => m.isHost).map((m) => m.user.id)).toEqual([bob.userId]);
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: "session_members", sessionId: a.sessionId });
      expect((events[0] as ServerEventMap["session_members"]).members.map((m) => [m.user.id, m.isHost])).toEqual([[bob.userId, true], [cy.userId, false]]);
      await expectError(authorize(t.server.deps, gameMethod, `Bearer ${a.gameToken}`), Code.PermissionDenied, /no longer in this game session/);
      // Leaving again is harmless.
      await ada.client.session.leave({ sessionId: a.sessionId });
    });
  });

  describe("getSession", () => {
    it("should show members to members only, with host, friend, guest and join time", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { hostingTier: "dedicated" });
      const [ada, guest, outsider] = await Promise.all([player(t), player(t, { guest: true }), player(t)]);
      const bob = await player(t);
      await befriend(t.server, ada.userId, bob.userId);
      const a = await ada.client.session.join({ experienceId: experience.id });
      t.server.clock.advance(5000);
      await guest.client.session.join({ experienceId: experience.id });
      // Members are listed by join time; at the same instant the order would be by id.
      t.server.clock.advance(1000);
      await bob.client.session.join({ experienceId: experience.id });
      const detail = await ada.client.session.getSession({ sessionId: a.sessionId });
      expect(detail).toMatchObject({ id: a.sessionId, experienceId: experience.id, hostingTier: "dedicated", maxPlayers: 8 });
      expect(detail.members.map((m) => [m.user.id, m.isHost, m.isFriend, m.guest])).toEqual([
        [ada.userId, false, false, false], [guest.userId, false, false, true], [bob.userId, false, true, false],
      ]);
      expect(Date.parse(detail.members[1]!.joinedAt) - Date.parse(detail.members[0]!.joinedAt)).toBeGreaterThanOrEqual(5000);
      await expectError(outsider.client.session.getSession({ sessionId: a.sessionId }), Code.NotFound, /^sessionId: /);
    });
  });

  describe("listSessions", () => {
    it("should list open sessions, friends' first for a signed-in caller, and nothing personal for others", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { maxPlayers: 2 });
      const [a1, a2, b1, me] = await Promise.all([player(t), player(t), player(t), player(t)]);
      const a = await a1.client.session.join({ experienceId: experience.id });
      await a2.client.session.join({ experienceId: experience.id });
      const b = await b1.client.session.join({ experienceId: experience.id });
      await befriend(t.server, me.userId, b1.userId);
      const mine = await me.client.session.listSessions({ experienceId: experience.id });
      expect(mine.sessions.map((s) => [s.id, s.memberCount, s.maxPlayers, s.friends.map((f) => f.id)])).toEqual([
        [b.sessionId, 1, 2, [b1.userId]], [a.sessionId, 2, 2, []],
      ]);
      const anonymous = await t.client().session.listSessions({ experienceId: experience.id });
      expect(anonymous.sessions.map((s) => [s.id, s.friends.length])).toEqual([[a.sessionId, 0], [b.sessionId, 0]]);
      const { experience: draft } = await addExperience(t.server, { visibility: "draft" });
      await expectError(t.client().session.listSessions({ experienceId: draft.id }), Code.NotFound, /^experienceId: /);
    });
  });

  describe("inviteToSession", () => {
    it("should send the friend a game_invite", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server, { title: "Sky Race" });
      const [ada, bob] = await Promise.all([player(t), player(t)]);
      await befriend(t.server, ada.userId, bob.userId);
      const a = await ada.client.session.join({ experienceId: experience.id });
      const events = listen(t.server, bob.userId);
      await ada.client.session.inviteToSession({ sessionId: a.sessionId, userId: bob.userId });
      expect(events).toEqual([{ type: "game_invite", from: expect.objectContaining({ id: ada.userId }), experienceId: experience.id, sessionId: a.sessionId, title: "Sky Race" }]);
      const joined = await bob.client.session.join({ experienceId: experience.id, sessionId: a.sessionId });
      expect(joined.sessionId).toBe(a.sessionId);
      await expectError(ada.client.session.inviteToSession({ sessionId: a.sessionId, userId: bob.userId }), Code.FailedPrecondition, /already in this session/);
    });

    it("should invite friends only, from the caller's own session, and not as a guest", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server);
      const [ada, stranger, guest] = await Promise.all([player(t), player(t), player(t, { guest: true })]);
      const a = await ada.client.session.join({ experienceId: experience.id });
      await expectError(ada.client.session.inviteToSession({ sessionId: a.sessionId, userId: stranger.userId }), Code.FailedPrecondition, /^userId: only friends/);
      await expectError(stranger.client.session.inviteToSession({ sessionId: a.sessionId, userId: ada.userId }), Code.NotFound, /^sessionId: /);
      await expectError(ada.client.session.inviteToSession({ sessionId: a.sessionId, userId: "usr_missing" }), Code.NotFound, /^userId: /);
      await expectError(guest.client.session.inviteToSession({ sessionId: a.sessionId, userId: ada.userId }), Code.PermissionDenied);
    });

    it("should tell a friend who cannot see a private experience nothing of it, until they test it", async () => {
      await using t = await testServer(kind);
      const [creator, ada, bob] = await Promise.all([player(t), player(t), player(t)]);
      const { experience } = await addExperience(t.server, { creatorId: creator.userId, visibility: "private" });
      await creator.client.catalog.addTester({ experienceId: experience.id, userId: ada.userId });
      await befriend(t.server, ada.userId, bob.userId);
      const a = await ada.client.session.join({ experienceId: experience.id });
      const events = listen(t.server, bob.userId);
      await expectError(ada.client.session.inviteToSession({ sessionId: a.sessionId, userId: bob.userId }), Code.FailedPrecondition, /^userId: this friend cannot see this experience/);
      expect(events).toEqual([]);
      await creator.client.catalog.addTester({ experienceId: experience.id, userId: bob.userId });
      await ada.client.session.inviteToSession({ sessionId: a.sessionId, userId: bob.userId });
      expect(events).toEqual([expect.objectContaining({ type: "game_invite", experienceId: experience.id })]);
    });
  });

  describe("realtime rosters", () => {
    it("should send session_members to every member on each join", async () => {
      await using t = await testServer(kind);
      const { experience } = await addExperience(t.server);
      const [ada, bob] = await Promise.all([player(t), player(t)]);
      const adaEvents = listen(t.server, ada.userId);
      const bobEvents = listen(t.server, bob.userId);
      const a = await ada.client.session.join({ experienceId: experience.id });
      await bob.client.session.join({ experienceId: experience.id });
      const ids = (e: RealtimeEvent) => (e as ServerEventMap["session_members"]).members.map((m) => m.user.id);
      expect(adaEvents.map(ids)).toEqual([[ada.userId], [ada.userId, bob.userId]]);
      expect(bobEvents.map(ids)).toEqual([[ada.userId, bob.userId]]);
      expect(bobEvents[0]).toMatchObject({ type: "session_members", sessionId: a.sessionId });
    });
  });
});

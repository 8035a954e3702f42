import { describe, expect, it } from "vitest";
import { sweepSessions } from "../src/services/session/roster.js";
import { testServer, TRANSPORTS } from "./fixtures.js";
import { befriend, connect, players, presenceAbout, presenceMessages } from "./presence-fixtures.js";
import { addExperience } from "./session-world.js";

/*
 * `presence` realtime events through real connections (the endpoint in
 * process, a WebSocket over the network): each change of where a user is
 * reaches their connected friends once, and no one else.
 */

describe.each(TRANSPORTS)("presence events (%s)", (kind) => {
  const world = () => testServer(kind, { sessions: { silenceMs: 1000 } });

  describe("connections", () => {
    it("should tell a friend when the first connection opens and the last one closes, and nothing in between", async () => {
      await using t = await world();
      const [ada, bob] = await players(t, 2);
      await befriend(ada!, bob!);
      const adaLink = await connect(t, kind, ada!.accessToken);
      const bob1 = await connect(t, kind, bob!.accessToken);
      await adaLink.barrier();
      expect(presenceMessages(adaLink)).toEqual([{ type: "presence", userId: bob!.userId, presence: "online" }]);
      const bob2 = await connect(t, kind, bob!.accessToken);
      await bob2.close();
      await adaLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual(["online"]);
      await bob1.close();
      await adaLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual(["online", "offline"]);
    });

    it("should greet a new connection with each friend who is not offline, and no one else", async () => {
      await using t = await world();
      const { experience } = await addExperience(t.server);
      const [ada, bob, carl, dan, eve] = await players(t, 5);
      for (const friend of [bob!, carl!, dan!]) await befriend(ada!, friend);
      await connect(t, kind, bob!.accessToken);
      await carl!.client.session.join({ experienceId: experience.id });
      await connect(t, kind, eve!.accessToken);
      const adaLink = await connect(t, kind, ada!.accessToken);
      expect(adaLink.messages[0]).toEqual({ type: "ready", userId: ada!.userId });
      expect(presenceMessages(adaLink)).toEqual(expect.arrayContaining([
        { type: "presence", userId: bob!.userId, presence: "online" },
        { type: "presence", userId: carl!.userId, presence: "in_game", experienceId: experience.id },
      ]));
      expect(presenceMessages(adaLink)).toHaveLength(2);
      // A second connection of the same user is greeted the same way.
      const again = await connect(t, kind, ada!.accessToken);
      expect(presenceMessages(again)).toEqual(expect.arrayContaining(presenceMessages(adaLink)));
      expect(presenceMessages(again)).toHaveLength(2);
    });
  });

  describe("sessions", () => {
    it("should tell friends on join, on a switch of experience, on leave, and not on a retried join", async () => {
      await using t = await world();
      const [orbit, drift] = [(await addExperience(t.server)).experience, (await addExperience(t.server)).experience];
      const [ada, bob] = await players(t, 2);
      await befriend(ada!, bob!);
      const adaLink = await connect(t, kind, ada!.accessToken);
      await connect(t, kind, bob!.accessToken);
      const first = await bob!.client.session.join({ experienceId: orbit.id });
      await bob!.client.session.join({ experienceId: orbit.id });
      const second = await bob!.client.session.join({ experienceId: drift.id });
      await bob!.client.session.leave({ sessionId: first.sessionId });
      await bob!.client.session.leave({ sessionId: second.sessionId });
      await adaLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual(["online", `in_game:${orbit.id}`, `in_game:${drift.id}`, "online"]);
    });

    it("should keep a player in game without a connection, and tell friends when silence drops them", async () => {
      await using t = await world();
      const { experience } = await addExperience(t.server);
      const [ada, bob] = await players(t, 2);
      await befriend(ada!, bob!);
      const adaLink = await connect(t, kind, ada!.accessToken);
      const bobLink = await connect(t, kind, bob!.accessToken);
      await bob!.client.session.join({ experienceId: experience.id });
      await bobLink.close();
      await adaLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual(["online", `in_game:${experience.id}`]);
      t.server.clock.advance(1001);
      // The silent member is dropped (their session ends with them) by the next sweep.
      expect(await sweepSessions(t.server.deps)).toBe(1);
      await adaLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual(["online", `in_game:${experience.id}`, "offline"]);
    });

    it("should tell friends when any call drops a silent member", async () => {
      await using t = await world();
      const { experience } = await addExperience(t.server);
      const [ada, bob, carl] = await players(t, 3);
      await befriend(ada!, bob!);
      const adaLink = await connect(t, kind, ada!.accessToken);
      await connect(t, kind, bob!.accessToken);
      await bob!.client.session.join({ experienceId: experience.id });
      t.server.clock.advance(1001);
      await carl!.client.session.listSessions({ experienceId: experience.id });
      await adaLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual(["online", `in_game:${experience.id}`, "online"]);
    });
  });

  describe("showOnlineStatus", () => {
    it("should show offline while it is off and the current presence once it is on again", async () => {
      await using t = await world();
      const { experience } = await addExperience(t.server);
      const [ada, bob] = await players(t, 2);
      await befriend(ada!, bob!);
      const adaLink = await connect(t, kind, ada!.accessToken);
      await connect(t, kind, bob!.accessToken);
      await bob!.client.identity.updateSettings({ showOnlineStatus: false });
      await bob!.client.identity.updateSettings({ showOnlineStatus: false });
      await bob!.client.session.join({ experienceId: experience.id });
      const late = await connect(t, kind, ada!.accessToken);
      expect(presenceAbout(late, bob!.userId)).toEqual([]);
      await bob!.client.identity.updateSettings({ showOnlineStatus: true });
      await bob!.client.identity.updateSettings({ theme: "dark" });
      await adaLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual(["online", "offline", `in_game:${experience.id}`]);
      await late.barrier();
      expect(presenceAbout(late, bob!.userId)).toEqual([`in_game:${experience.id}`]);
    });
  });

  describe("friendships", () => {
    it("should give new friends each other's presence and former friends a last offline, then nothing", async () => {
      await using t = await world();
      const { experience } = await addExperience(t.server);
      const [ada, bob] = await players(t, 2);
      const adaLink = await connect(t, kind, ada!.accessToken);
      const bobLink = await connect(t, kind, bob!.accessToken);
      await bob!.client.session.join({ experienceId: experience.id });
      await ada!.client.social.sendFriendRequest({ userId: bob!.userId });
      await adaLink.barrier();
      expect(presenceMessages(adaLink)).toEqual([]);
      await bob!.client.social.acceptFriendRequest({ userId: ada!.userId });
      await adaLink.barrier();
      await bobLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual([`in_game:${experience.id}`]);
      expect(presenceAbout(bobLink, ada!.userId)).toEqual(["online"]);
      await ada!.client.social.removeFriend({ userId: bob!.userId });
      await ada!.client.social.removeFriend({ userId: bob!.userId });
      const bobAfter = await connect(t, kind, bob!.accessToken);
      await bob!.client.session.join({ experienceId: (await addExperience(t.server)).experience.id });
      await adaLink.barrier();
      await bobLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual([`in_game:${experience.id}`, "offline"]);
      expect(presenceAbout(bobLink, ada!.userId)).toEqual(["online", "offline"]);
      expect(presenceMessages(bobAfter)).toEqual([]);
    });

    it("should send nothing more to a blocked user, after a last offline, and nothing to non-friends", async () => {
      await using t = await world();
      const { experience } = await addExperience(t.server);
      const [ada, bob, eve] = await players(t, 3);
      await befriend(ada!, bob!);
      const bobLink = await connect(t, kind, bob!.accessToken);
      const eveLink = await connect(t, kind, eve!.accessToken);
      const adaLink = await connect(t, kind, ada!.accessToken);
      await ada!.client.social.block({ userId: bob!.userId });
      await ada!.client.social.block({ userId: bob!.userId });
      await ada!.client.session.join({ experienceId: experience.id });
      await bob!.client.session.join({ experienceId: (await addExperience(t.server)).experience.id });
      await adaLink.close();
      await bobLink.barrier();
      expect(presenceAbout(bobLink, ada!.userId)).toEqual(["online", "offline"]);
      expect(presenceMessages(eveLink)).toEqual([]);
    });

    it("should tell friends a deleted account is offline", async () => {
      await using t = await world();
      const [ada, bob] = await players(t, 2);
      await befriend(ada!, bob!);
      const adaLink = await connect(t, kind, ada!.accessToken);
      await connect(t, kind, bob!.accessToken);
      await bob!.client.identity.deleteAccount({ password: bob!.password });
      await adaLink.barrier();
      expect(presenceAbout(adaLink, bob!.userId)).toEqual(["online", "offline"]);
    });
  });
});

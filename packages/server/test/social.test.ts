import { describe, expect, it } from "vitest";
import { Code } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { befriend, member, members, setSettings } from "./social-fixtures.js";
import { connect } from "./presence-fixtures.js";
import { experience } from "./economy-fixtures.js";

describe.each(TRANSPORTS)("SocialService (%s)", (kind) => {
  describe("getProfile", () => {
    it("should find a user by id, by username in any case, and show counts and the relationship", async () => {
      await using t = await testServer(kind);
      const [ada, bob, cy] = await members(t, 3);
      await befriend(ada!, bob!);
      await cy!.client.social.follow({ userId: ada!.user.userId });
      const byId = await bob!.client.social.getProfile({ userId: ada!.user.userId });
      expect(byId.user.id).toBe(ada!.user.userId);
      expect(byId).toMatchObject({ friendCount: 1, followerCount: 1, followingCount: 0, relationship: "friends", following: false });
      const byName = await cy!.client.social.getProfile({ username: ada!.user.username.toUpperCase() });
      expect(byName).toMatchObject({ relationship: "none", following: true });
      const nameInUserId = await t.client().social.getProfile({ userId: ada!.user.username });
      expect(nameInUserId.user.id).toBe(ada!.user.userId);
      expect(nameInUserId.relationship).toBe("none");
      expect((await ada!.client.social.getProfile({ userId: ada!.user.userId })).relationship).toBe("self");
      expect(byId.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    });

    it("should answer not_found for an unknown user and invalid_argument with neither field", async () => {
      await using t = await testServer(kind);
      await expectError(t.client().social.getProfile({ userId: "usr_nope" }), Code.NotFound, /^userId: no such user/);
      await expectError(t.client().social.getProfile({}), Code.InvalidArgument, /^userId: /);
    });
  });

  describe("updateProfile", () => {
    it("should change the display name and bio, and keep what is left empty", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      const first = await ada.client.social.updateProfile({ displayName: "  Ada   L  ", bio: "Builds\nthings" });
      expect(first.user.displayName).toBe("Ada L");
      expect(first.bio).toBe("Builds\nthings");
      const second = await ada.client.social.updateProfile({ bio: "New bio" });
      expect(second.user.displayName).toBe("Ada L");
      expect((await ada.client.social.updateProfile({})).bio).toBe("New bio");
      expect((await ada.client.social.updateProfile({ bio: "   " })).bio).toBe("");
    });

    it("should refuse blank, invisible-character and over-long names and bios, changing nothing", async () => {
      await using t = await testServer(kind);
      const ada = await member(t);
      await ada.client.social.updateProfile({ displayName: "Ada", bio: "kept" });
      await expectError(ada.client.social.updateProfile({ displayName: "   ", bio: "lost" }), Code.InvalidArgument, /^displayName: must not be blank/);
      await expectError(ada.client.social.updateProfile({ displayName: "A\u200bda" }), Code.InvalidArgument, /^displayName: no control/);
      await expectError(ada.client.social.updateProfile({ displayName: "x".repeat(31) }), Code.InvalidArgument, /^displayName: at most 30/);
      await expectError(ada.client.social.updateProfile({ bio: "bell\u0007" }), Code.InvalidArgument, /^bio: /);
      await expectError(ada.client.social.updateProfile({ bio: "x".repeat(1001) }), Code.InvalidArgument, /^bio: at most 1000/);
      const profile = await ada.client.social.getProfile({ userId: ada.user.userId });
      expect(profile.user.displayName).toBe("Ada");
      expect(profile.bio).toBe("kept");
    });
  });

  describe("searchUsers", () => {
    it("should rank the exact name, then prefixes, then word starts, then substrings, ignoring case", async () => {
      await using t = await testServer(kind);
      const seed = (username: string, displayName = "") => t.server.seed.user({ username, displayName });
      await seed("sam");
      await seed("samwise");
      await seed("xsamx");
      await seed("gardener", "Sam Gamgee");
      await seed("unrelated");
      const { users } = await t.client().social.searchUsers({ query: "SAM" });
      expect(users.map((u) => u.username)).toEqual(["sam", "samwise", "gardener", "xsamx"]);
      const limited = await t.client().social.searchUsers({ query: "sam", limit: 2 });
      expect(limited.users.map((u) => u.username)).toEqual(["sam", "samwise"]);
    });

    it("should find a new display name at once and leave out guests", async () => {
      await using t = await testServer(kind);
      const ada = await member(t, { username: "ada_1" });
      await t.server.seed.guest({ username: "Guest_12345678" });
      expect((await t.client().social.searchUsers({ query: "guest" })).users).toEqual([]);
      await ada.client.social.updateProfile({ displayName: "Countess Lovelace" });
      expect((await t.client().social.searchUsers({ query: "lovel" })).users.map((u) => u.id)).toEqual([ada.user.userId]);
    });

    it("should refuse an empty query", async () => {
      await using t = await testServer(kind);
      await expectError(t.client().social.searchUsers({ query: "  " }), Code.InvalidArgument, /^query: required/);
    });
  });

  describe("friends", () => {
    it("should move through request_sent, request_received and friends, and accept when both ask", async () => {
      await using t = await testServer(kind);
      const [a, b, c] = await members(t, 3);
      expect(await a!.client.social.sendFriendRequest({ userId: b!.user.userId })).toEqual({ relationship: "request_sent" });
      expect((await b!.client.social.getProfile({ userId: a!.user.userId })).relationship).toBe("request_received");
      const requests = await b!.client.social.listFriendRequests();
      expect(requests.incoming.map((u) => u.id)).toEqual([a!.user.userId]);
      expect((await a!.client.social.listFriendRequests()).outgoing.map((u) => u.id)).toEqual([b!.user.userId]);
      expect(await b!.client.social.acceptFriendRequest({ userId: a!.user.userId })).toEqual({ relationship: "friends" });
      // Sending to someone who already asked you accepts.
      await c!.client.social.sendFriendRequest({ userId: a!.user.userId });
      expect(await a!.client.social.sendFriendRequest({ userId: c!.user.userId })).toEqual({ relationship: "friends" });
      expect((await a!.client.social.listFriends({})).friends.map((f) => f.user.id).sort()).toEqual([b!.user.userId, c!.user.userId].sort());
      expect((await a!.client.social.listFriendRequests()).incoming).toEqual([]);
    });

    it("should decline, withdraw and remove, and refuse accepting with no request", async () => {
      await using t = await testServer(kind);
      const [a, b] = await members(t, 2);
      await expectError(a!.client.social.acceptFriendRequest({ userId: b!.user.userId }), Code.FailedPrecondition, /^userId: no friend request/);
      await a!.client.social.sendFriendRequest({ userId: b!.user.userId });
      expect(await b!.client.social.declineFriendRequest({ userId: a!.user.userId })).toEqual({ relationship: "none" });
      await a!.client.social.sendFriendRequest({ userId: b!.user.userId });
      expect(await a!.client.social.declineFriendRequest({ userId: b!.user.userId })).toEqual({ relationship: "none" });
      await befriend(a!, b!);
      expect(await b!.client.social.removeFriend({ userId: a!.user.userId })).toEqual({ relationship: "none" });
      expect((await a!.client.social.getProfile({ userId: b!.user.userId })).relationship).toBe("none");
      expect(await b!.client.social.removeFriend({ userId: a!.user.userId })).toEqual({ relationship: "none" });
    });

    it("should honour whoCanFriend: nobody, and friends = friends of friends", async () => {
      await using t = await testServer(kind);
      const [a, b, c] = await members(t, 3);
      await setSettings(t, b!.user.userId, { whoCanFriend: "nobody" });
      await expectError(a!.client.social.sendFriendRequest({ userId: b!.user.userId }), Code.PermissionDenied, /does not accept friend requests/);
      await setSettings(t, b!.user.userId, { whoCanFriend: "friends" });
      await expectError(a!.client.social.sendFriendRequest({ userId: b!.user.userId }), Code.PermissionDenied, /friends of friends/);
      // b accepts requests only through a friend in common: c, friends with both.
      await befriend(b!, c!);
      await befriend(a!, c!);
      expect(await a!.client.social.sendFriendRequest({ userId: b!.user.userId })).toEqual({ relationship: "request_sent" });
    });

    it("should refuse befriending yourself, a guest or an unknown user", async () => {
      await using t = await testServer(kind);
      const a = await member(t);
      const guest = await t.server.seed.guest();
      await expectError(a.client.social.sendFriendRequest({ userId: a.user.userId }), Code.InvalidArgument, /^userId: you cannot friend yourself/);
      await expectError(a.client.social.sendFriendRequest({ userId: guest.userId }), Code.FailedPrecondition, /^userId: guests/);
      await expectError(a.client.social.sendFriendRequest({ userId: "usr_none" }), Code.NotFound, /^userId: no such user/);
    });

    it("should show presence: in_game with the experience, online with a realtime connection, offline, and hide it when the user says so", async () => {
      await using t = await testServer(kind);
      const [a, b, c, d] = await members(t, 4);
      for (const friend of [b!, c!, d!]) await befriend(a!, friend);
      const sky = await experience(t, d!.user.userId);
      await t.server.seed.gameToken(b!.user, { experienceId: sky.id, sessionId: "gs_1" });
      const connection = await connect(t, kind, c!.user.accessToken);
      const { friends } = await a!.client.social.listFriends({});
      const byId = new Map(friends.map((f) => [f.user.id, f]));
      expect(byId.get(b!.user.userId)).toMatchObject({ presence: "in_game", experienceId: sky.id });
      expect(byId.get(c!.user.userId)).toMatchObject({ presence: "online" });
      expect(byId.get(d!.user.userId)?.presence).toBe("offline");
      expect(friends.map((f) => f.presence)).toEqual(["in_game", "online", "offline"]);
      await setSettings(t, c!.user.userId, { showOnlineStatus: false });
      const hidden = await a!.client.social.listFriends({});
      expect(hidden.friends.find((f) => f.user.id === c!.user.userId)?.presence).toBe("offline");
      // Someone else's list shows presence only of the viewer's own friends.
      const stranger = await member(t);
      const seen = await stranger.client.social.listFriends({ userId: a!.user.userId });
      expect(seen.friends.every((f) => f.presence === "offline")).toBe(true);
      await connection.close();
    });

    it("should ask an anonymous caller for a userId", async () => {
      await using t = await testServer(kind);
      const a = await member(t);
      await expectError(t.client().social.listFriends({}), Code.InvalidArgument, /^userId: required/);
      expect((await t.client().social.listFriends({ userId: a.user.userId })).friends).toEqual([]);
    });
  });

  describe("follow", () => {
    it("should follow and unfollow, idempotently, with counts on both profiles", async () => {
      await using t = await testServer(kind);
      const [a, b] = await members(t, 2);
      expect(await a!.client.social.follow({ userId: b!.user.userId })).toEqual({ following: true });
      expect(await a!.client.social.follow({ userId: b!.user.userId })).toEqual({ following: true });
      expect((await t.client().social.getProfile({ userId: b!.user.userId })).followerCount).toBe(1);
      expect((await t.client().social.getProfile({ userId: a!.user.userId })).followingCount).toBe(1);
      expect(await a!.client.social.unfollow({ userId: b!.user.userId })).toEqual({ following: false });
      expect((await t.client().social.getProfile({ userId: b!.user.userId })).followerCount).toBe(0);
      await expectError(a!.client.social.follow({ userId: a!.user.userId }), Code.InvalidArgument, /^userId: you cannot follow yourself/);
    });
  });

  describe("groups", () => {
    it("should make the creator the owner at rank 255 and members rank 1, with roles", async () => {
      await using t = await testServer(kind);
      const [owner, joiner] = await members(t, 2);
      const group = await owner!.client.social.createGroup({ name: " Sky  Builders ", description: "We build" });
      expect(group).toMatchObject({ name: "Sky Builders", memberCount: 1, myRank: 255 });
      expect(group.owner.id).toBe(owner!.user.userId);
      const joined = await joiner!.client.social.joinGroup({ groupId: group.id });
      expect(joined).toMatchObject({ memberCount: 2, myRank: 1 });
      expect((await joiner!.client.social.joinGroup({ groupId: group.id })).memberCount).toBe(2);
      const { members: list } = await t.client().social.listGroupMembers({ groupId: group.id });
      expect(list.map((m) => [m.user.id, m.rank, m.role])).toEqual([[owner!.user.userId, 255, "Owner"], [joiner!.user.userId, 1, "Member"]]);
      expect((await t.client().social.getGroup({ groupId: group.id })).myRank).toBe(0);
      expect((await joiner!.client.social.listMyGroups()).groups.map((g) => g.id)).toEqual([group.id]);
    });

    it("should keep the owner in while others remain, and let members leave", async () => {
      await using t = await testServer(kind);
      const [owner, joiner] = await members(t, 2);
      const group = await owner!.client.social.createGroup({ name: "Sky Builders" });
      await joiner!.client.social.joinGroup({ groupId: group.id });
      await expectError(owner!.client.social.leaveGroup({ groupId: group.id }), Code.FailedPrecondition, /owner cannot leave/);
      const left = await joiner!.client.social.leaveGroup({ groupId: group.id });
      expect(left.memberCount).toBe(1);
      expect(left.myRank).toBe(0);
      await owner!.client.social.leaveGroup({ groupId: group.id });
      await expectError(t.client().social.getGroup({ groupId: group.id }), Code.NotFound, /^groupId: no such group/);
    });

    it("should refuse a taken name in any case and a bad name", async () => {
      await using t = await testServer(kind);
      const a = await member(t);
      await a.client.social.createGroup({ name: "Sky Builders" });
      await expectError(a.client.social.createGroup({ name: "sky builders" }), Code.AlreadyExists, /^name: /);
      await expectError(a.client.social.createGroup({ name: "  ab  " }), Code.InvalidArgument, /^name: 3 to 50/);
    });

    it("should search groups by prefix, word and substring, with myRank", async () => {
      await using t = await testServer(kind);
      const a = await member(t);
      await a.client.social.createGroup({ name: "Builders Guild" });
      await a.client.social.createGroup({ name: "Sky Builders" });
      await a.client.social.createGroup({ name: "Rebuilders" });
      await a.client.social.createGroup({ name: "Painters" });
      const { groups } = await a.client.social.searchGroups({ query: "build" });
      expect(groups.map((g) => g.name)).toEqual(["Builders Guild", "Sky Builders", "Rebuilders"]);
      expect(groups.every((g) => g.myRank === 255)).toBe(true);
    });
  });

  describe("block", () => {
    it("should end friendship, requests and follows both ways, and hide the blocker from the blocked", async () => {
      await using t = await testServer(kind);
      const [a, b, c] = await members(t, 3);
      await befriend(a!, b!);
      await a!.client.social.follow({ userId: b!.user.userId });
      await b!.client.social.follow({ userId: a!.user.userId });
      expect(await a!.client.social.block({ userId: b!.user.userId })).toEqual({ blocked: true });
      expect((await a!.client.social.getProfile({ userId: b!.user.userId })).relationship).toBe("none");
      const profile = await c!.client.social.getProfile({ userId: a!.user.userId });
      expect(profile).toMatchObject({ friendCount: 0, followerCount: 0, followingCount: 0 });
      // The blocked user can no longer reach the blocker.
      await expectError(b!.client.social.sendFriendRequest({ userId: a!.user.userId }), Code.NotFound);
      await expectError(b!.client.social.follow({ userId: a!.user.userId }), Code.NotFound);
      await expectError(b!.client.social.getProfile({ userId: a!.user.userId }), Code.NotFound);
      // SearchUsers is open to anyone (auth None), so the client sends no token unless given one.
      const found = await b!.client.social.searchUsers({ query: a!.user.username }, { token: b!.user.accessToken });
      expect(found.users.map((u) => u.id)).not.toContain(a!.user.userId);
      expect((await c!.client.social.searchUsers({ query: a!.user.username })).users[0]?.id).toBe(a!.user.userId);
      // And the blocker must unblock before reaching out.
      await expectError(a!.client.social.sendFriendRequest({ userId: b!.user.userId }), Code.FailedPrecondition, /unblock first/);
      expect((await a!.client.social.listBlocked()).users.map((u) => u.id)).toEqual([b!.user.userId]);
      expect(await a!.client.social.unblock({ userId: b!.user.userId })).toEqual({ blocked: false });
      expect((await a!.client.social.listBlocked()).users).toEqual([]);
      expect(await b!.client.social.sendFriendRequest({ userId: a!.user.userId })).toEqual({ relationship: "request_sent" });
    });

    it("should refuse blocking yourself or an unknown user", async () => {
      await using t = await testServer(kind);
      const a = await member(t);
      await expectError(a.client.social.block({ userId: a.user.userId }), Code.InvalidArgument, /yourself/);
      await expectError(a.client.social.block({ userId: "usr_nope" }), Code.NotFound);
    });
  });

  describe("auth", () => {
    it("should refuse guests on account methods", async () => {
      await using t = await testServer(kind);
      const guest = await member(t, { guest: true });
      await expectError(guest.client.social.updateProfile({ bio: "hi" }), Code.PermissionDenied);
    });
  });
});

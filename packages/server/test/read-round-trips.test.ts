import { describe, expect, it } from "vitest";
import { ChannelKind, tables, type ExperienceRow, type GameSessionRow, type ItemRow, type UserRow } from "@playfield/core";
import { syncTerms } from "../src/services/catalog/search.js";
import { OPEN_SESSIONS_SCAN_MAX } from "../src/services/catalog/players-now.js";
import { storeChat } from "../src/services/chat/send.js";
import { createMemoryStorage } from "@playfield/server-memory";
import { newUser, putMember, saveUser } from "@playfield/server";
import { countingStorage, type CountingStorage } from "./counting-storage.js";
import { testServer, type TestServer } from "./fixtures.js";
import { member, type Member } from "./social-fixtures.js";
import { addExperience } from "./session-world.js";

/*
 * Reads per call do not grow with the rows a call answers about: on a
 * database each read is a round trip, so a read in a loop over friends,
 * members or sessions makes a call n times slower. Each method runs on a
 * small and a large world and must make the same number of reads, and few.
 */

/** Reads a call may make, whatever the size of what it lists. */
const FEW = 16;

interface World {
  t: TestServer;
  storage: CountingStorage;
  viewer: Member;
}

async function world(): Promise<World> {
  const storage = countingStorage(createMemoryStorage());
  const t = await testServer("in-process", { storage });
  return { t, storage, viewer: await member(t) };
}

/** `n` accounts written straight to storage, in one transaction. */
async function crowd(w: World, n: number, name: string): Promise<UserRow[]> {
  const { deps } = w.t.server;
  return deps.storage.transact(async (tx) => {
    const users: UserRow[] = [];
    for (let i = 0; i < n; i++) {
      const user = newUser(deps, { username: `${name}_${i}`, displayName: `${name} ${i}`, passwordHash: "x", birthdate: "1990-01-01" });
      await saveUser(tx, user);
      users.push(user);
    }
    return users;
  });
}

/** The reads each method made on the small and the large world are the same, and few. */
function expectSameFewReads(counts: Record<string, number>[], few = FEW): void {
  const [small, large] = counts;
  expect(large).toEqual(small);
  for (const reads of Object.values(large!)) expect(reads).toBeLessThanOrEqual(few);
}

/** The reads of everything `call` runs (all its transactions). */
async function readsOf(w: World, call: () => Promise<unknown>): Promise<number> {
  w.storage.reset();
  await call();
  return w.storage.reads.reduce((sum, n) => sum + n, 0);
}

describe("reads per call (no read in a loop)", () => {
  it("should answer GetMe from the token check's own transaction: one transaction, reading the device and the user", async () => {
    const w = await world();
    w.storage.reset();
    const me = await w.viewer.client.identity.getMe({});
    expect(me.user.id).toBe(w.viewer.user.userId);
    expect(w.storage.reads).toEqual([2]);
  });

  it("should list friends, requests, blocked users and group members in the same few reads for 2 or 200 of them", async () => {
    const counts = [];
    for (const n of [2, 200]) {
      const w = await world();
      const me = w.viewer.user.userId;
      const friends = await crowd(w, n, "friend");
      const others = await crowd(w, n, "other");
      const group = await w.viewer.client.social.createGroup({ name: `Guild ${n}` });
      const now = w.t.server.clock.now();
      await w.t.server.deps.storage.transact(async (tx) => {
        for (const [i, friend] of friends.entries()) {
          await tx.put(tables.friendEdges, { id: `${me}:${friend.id}`, userId: me, friendId: friend.id, createdAt: now + i });
          await tx.put(tables.friendEdges, { id: `${friend.id}:${me}`, userId: friend.id, friendId: me, createdAt: now + i });
          // Half the friends play, the first one blocked the viewer.
          if (i % 2 === 1) await putMember(tx, { id: `gs_${i}:${friend.id}`, sessionId: `gs_${i}`, userId: friend.id, experienceId: "exp_x", joinedAt: now, lastHeartbeatAt: now });
          if (i === 0) await tx.put(tables.blocks, { id: `${friend.id}:${me}`, blockerId: friend.id, blockedId: me, createdAt: now });
        }
        for (const [i, other] of others.entries()) {
          await tx.put(tables.friendRequests, { id: `${other.id}:${me}`, fromId: other.id, toId: me, createdAt: now + i });
          await tx.put(tables.blocks, { id: `${me}:${other.id}`, blockerId: me, blockedId: other.id, createdAt: now + i });
          await tx.put(tables.groupMembers, { id: `${group.id}:${other.id}`, groupId: group.id, userId: other.id, rank: 1, joinedAt: now + i });
        }
      });
      const social = w.viewer.client.social;
      const listed = await social.listFriends({});
      expect(listed.friends).toHaveLength(n - 1);
      expect(listed.friends.filter((f) => f.presence === "in_game")).toHaveLength(n / 2);
      expect((await social.listFriendRequests({})).incoming).toHaveLength(n);
      expect((await social.listBlocked({})).users).toHaveLength(n);
      expect((await social.listGroupMembers({ groupId: group.id })).members).toHaveLength(n + 1);
      counts.push({
        listFriends: await readsOf(w, () => social.listFriends({})),
        // Another viewer's list: presence only of the friends they share.
        listFriendsOfFriend: await readsOf(w, () => social.listFriends({ userId: friends[1]!.id })),
        listFriendRequests: await readsOf(w, () => social.listFriendRequests({})),
        listBlocked: await readsOf(w, () => social.listBlocked({})),
        listGroupMembers: await readsOf(w, () => social.listGroupMembers({ groupId: group.id })),
        listMyGroups: await readsOf(w, () => social.listMyGroups({})),
      });
    }
    expectSameFewReads(counts);
  });

  it("should join a session in the same few reads whether 2 or 200 friends play, and with 2 or 40 members in the session", async () => {
    const counts = [];
    for (const n of [2, 200]) {
      const w = await world();
      const me = w.viewer.user.userId;
      const { experience, version } = await addExperience(w.t.server, { hostingTier: "peer", maxPlayers: 50 });
      const friends = await crowd(w, n, "friend");
      const now = w.t.server.clock.now();
      // The last k friends play together in one session, every other friend in a session of their own.
      const k = Math.max(2, n / 5);
      await w.t.server.deps.storage.transact(async (tx) => {
        for (const [i, friend] of friends.entries()) {
          await tx.put(tables.friendEdges, { id: `${me}:${friend.id}`, userId: me, friendId: friend.id, createdAt: now + i });
          await tx.put(tables.friendEdges, { id: `${friend.id}:${me}`, userId: friend.id, friendId: me, createdAt: now + i });
        }
        const sessions = [...friends.slice(0, n - k).map((friend) => [friend]), friends.slice(n - k)];
        for (const [i, players] of sessions.entries()) {
          const session: GameSessionRow = {
            id: `gs_${i}`, experienceId: experience.id, placeVersionId: version!.id, hostingTier: "peer", maxPlayers: 50,
            hostUserId: players[0]!.id, memberCount: players.length, connectUrl: "", createdAt: now, closedAt: null,
          };
          await tx.put(tables.gameSessions, session);
          for (const player of players) {
            await putMember(tx, { id: `${session.id}:${player.id}`, sessionId: session.id, userId: player.id, experienceId: experience.id, joinedAt: now, lastHeartbeatAt: now });
          }
        }
      });
      const joined = await w.viewer.client.session.join({ experienceId: experience.id, platform: "web", engineVersion: "1.0" });
      // Friends first: the session the most friends are in.
      expect(joined.sessionId).toBe(`gs_${n - k}`);
      expect(joined.members).toHaveLength(k + 1);
      await w.viewer.client.session.leave({ sessionId: joined.sessionId });
      counts.push({ join: await readsOf(w, () => w.viewer.client.session.join({ experienceId: experience.id, platform: "web", engineVersion: "1.0" })) });
    }
    expectSameFewReads(counts, 3 * FEW);
  });

  it("should list experiences in the same few reads with 2 or 200 open sessions, plays, friends or tester rows", async () => {
    const counts = [];
    for (const n of [2, 200]) {
      const w = await world();
      const me = w.viewer.user.userId;
      const now = w.t.server.clock.now();
      const experiences: ExperienceRow[] = [];
      for (let i = 0; i < n; i++) experiences.push((await addExperience(w.t.server, { visibility: i % 2 ? "public" : "private", title: `World ${i}` })).experience);
      await w.t.server.deps.storage.transact(async (tx) => {
        for (const [i, experience] of experiences.entries()) {
          await tx.put(tables.gameSessions, {
            id: `gs_${i}`, experienceId: experience.id, placeVersionId: experience.liveVersionId!, hostingTier: "peer", maxPlayers: 50,
            hostUserId: null, memberCount: 1 + (i % 7), connectUrl: "", createdAt: now, closedAt: null,
          });
          await tx.put(tables.plays, { id: `ply_${i}`, experienceId: experience.id, userId: me, sessionId: `gs_${i}`, joinedAt: now - i, leftAt: now });
          await tx.put(tables.experienceTesters, { id: `${experience.id}:${me}`, experienceId: experience.id, userId: me, addedAt: now + i });
          await syncTerms(tx, experience);
        }
      });
      // n friends, each of whom played one of the experiences.
      const friends = await crowd(w, n, "friend");
      await w.t.server.deps.storage.transact(async (tx) => {
        for (const [i, friend] of friends.entries()) {
          await tx.put(tables.friendEdges, { id: `${me}:${friend.id}`, userId: me, friendId: friend.id, createdAt: now + i });
          await tx.put(tables.plays, { id: `ply_f${i}`, experienceId: experiences[i]!.id, userId: friend.id, sessionId: `gs_${i}`, joinedAt: now - i, leftAt: now });
        }
      });
      const catalog = w.viewer.client.catalog;
      expect((await catalog.listExperiences({ sort: "friends", limit: 2 })).experiences).toHaveLength(2);
      expect((await catalog.listExperiences({ sort: "recent", limit: 2 })).experiences).toHaveLength(2);
      expect((await catalog.listExperiences({ sort: "testing", limit: 2 })).experiences).toHaveLength(2);
      expect((await catalog.listExperiences({ sort: "popular", limit: 1 })).experiences).toHaveLength(1);
      expect((await catalog.listExperiences({ sort: "search", query: "world", limit: 2 })).experiences).toHaveLength(n === 2 ? 1 : 2);
      counts.push({
        popular: await readsOf(w, () => catalog.listExperiences({ sort: "popular", limit: 1 })),
        recent: await readsOf(w, () => catalog.listExperiences({ sort: "recent", limit: 2 })),
        friends: await readsOf(w, () => catalog.listExperiences({ sort: "friends", limit: 2 })),
        testing: await readsOf(w, () => catalog.listExperiences({ sort: "testing", limit: 2 })),
      });
      // Search picks reads by id or a walk of the visits index by how many match: a few either way.
      expect(await readsOf(w, () => catalog.listExperiences({ sort: "search", query: "world", limit: 2 }))).toBeLessThanOrEqual(FEW);
    }
    expectSameFewReads(counts);
  });

  it("should show players now on a page of 2 or 100 experiences in the same few reads, and the same players once open sessions are too many to read at once", async () => {
    const counts = [];
    for (const n of [2, 100]) {
      const w = await world();
      const me = w.viewer.user.userId;
      const now = w.t.server.clock.now();
      const expected = new Map<string, number>();
      const experiences: ExperienceRow[] = [];
      for (let i = 0; i < n; i++) experiences.push((await addExperience(w.t.server, { creatorId: me, title: `World ${i}` })).experience);
      // Two open sessions each and a closed one; every fifth experience has none.
      await w.t.server.deps.storage.transact(async (tx) => {
        for (const [i, experience] of experiences.entries()) {
          expected.set(experience.id, 0);
          if (i % 5 === 4) continue;
          for (const [j, members] of [1 + (i % 7), 2, 9].entries()) {
            await tx.put(tables.gameSessions, {
              id: `gs_${i}_${j}`, experienceId: experience.id, placeVersionId: experience.liveVersionId!, hostingTier: "peer", maxPlayers: 50,
              hostUserId: null, memberCount: members, connectUrl: "", createdAt: now + j, closedAt: j === 2 ? now : null,
            });
          }
          expected.set(experience.id, 3 + (i % 7));
        }
      });
      const catalog = w.viewer.client.catalog;
      const players = async () => new Map((await catalog.listExperiences({ sort: "new", limit: n })).experiences.map((e) => [e.id, e.playingNow]));
      const popularOfCreator = async () => (await catalog.listExperiences({ sort: "popular", creatorId: me, limit: n })).experiences.map((e) => e.playingNow);
      const sorted = [...expected.values()].sort((a, b) => b - a);
      expect(await players()).toEqual(expected);
      expect(await popularOfCreator()).toEqual(sorted);
      const total = sorted.reduce((a, b) => a + b, 0);
      expect((await w.viewer.client.creator.getOverview()).playingNow).toBe(total);
      counts.push({
        page: await readsOf(w, () => catalog.listExperiences({ sort: "new", limit: n })),
        popularOfCreator: await readsOf(w, popularOfCreator),
        overview: await readsOf(w, () => w.viewer.client.creator.getOverview()),
      });
      // Past OPEN_SESSIONS_SCAN_MAX open sessions, each experience's are read on their own: the same answers.
      await w.t.server.deps.storage.transact(async (tx) => {
        for (let i = 0; i < OPEN_SESSIONS_SCAN_MAX; i++) {
          await tx.put(tables.gameSessions, {
            id: `gs_busy_${i}`, experienceId: "exp_elsewhere", placeVersionId: "ver_elsewhere", hostingTier: "peer", maxPlayers: 50,
            hostUserId: null, memberCount: 1, connectUrl: "", createdAt: now, closedAt: null,
          });
        }
      });
      expect(await players()).toEqual(expected);
      expect(await popularOfCreator()).toEqual(sorted);
      expect((await w.viewer.client.creator.getOverview()).playingNow).toBe(total);
    }
    expectSameFewReads(counts);
  });

  it("should list items and a user's inventory in the same few reads for 4 or 200 items by as many creators", async () => {
    const counts = [];
    for (const n of [4, 200]) {
      const w = await world();
      const me = w.viewer.user.userId;
      const creators = await crowd(w, n, "maker");
      const now = w.t.server.clock.now();
      await w.t.server.deps.storage.transact(async (tx) => {
        for (const [i, creator] of creators.entries()) {
          const item: ItemRow = {
            id: `itm_${i}`, kind: i % 2 ? "avatar_hat" : "developer_product", name: `Item ${i}`, description: "", price: 10, creatorId: creator.id,
            experienceId: "", thumbnailUrl: "", listed: true, sales: 1, createdAt: now, updatedAt: now, seq: i + 1,
          };
          await tx.put(tables.items, item);
          // The viewer owns every avatar item; one owned item is gone.
          const itemId = i === 1 ? "itm_gone" : item.id;
          if (i % 2) await tx.put(tables.ownership, { id: `${me}:${itemId}`, userId: me, itemId, kind: item.kind, acquiredAt: now, seq: i + 1 });
        }
      });
      const economy = w.viewer.client.economy;
      const listed = await economy.listItems({ limit: 100 });
      expect(listed.items).toHaveLength(Math.min(n, 100));
      expect(listed.items.filter((item) => item.owned)).toHaveLength(Math.min(n, 100) / 2 - (n < 100 ? 1 : 0));
      expect(listed.items.every((item) => item.creatorName.startsWith("maker_"))).toBe(true);
      const inventory = await economy.listInventory({});
      expect(inventory.items).toHaveLength(n / 2 - 1);
      expect(inventory.items.every((item) => item.owned && item.kind === "avatar_hat")).toBe(true);
      counts.push({
        listItems: await readsOf(w, () => economy.listItems({ limit: 100 })),
        listInventory: await readsOf(w, () => economy.listInventory({})),
      });
    }
    expectSameFewReads(counts);
  });

  it("should list conversations and mark one read in the same few reads with 2 or 200 unread DMs, and answer the same unread counts as counting", async () => {
    const counts = [];
    for (const n of [2, 200]) {
      const w = await world();
      const { deps } = w.t.server;
      const me = w.viewer.user.userId;
      const pals = await crowd(w, n, "pal");
      const say = (from: string, to: string, text: string) => storeChat(deps, from, { channel: { kind: ChannelKind.Dm, id: to }, text, clientMessageId: `c_${to}_${text}` });
      // Every pal writes twice; the viewer answers every other pal, who then writes once more: 2 or 1 unread each.
      for (const [i, pal] of pals.entries()) {
        await say(pal.id, me, "one");
        await say(pal.id, me, "two");
        if (i % 2) {
          await say(me, pal.id, "back");
          await say(pal.id, me, "three");
        }
      }
      const chat = w.viewer.client.chat;
      const listed = await chat.listConversations({ limit: 100 });
      expect(listed.conversations).toHaveLength(Math.min(n, 100));
      // Each unread count is what an indexed count of the messages after the marker answers.
      const expected = await deps.storage.transact(async (tx) => Promise.all(listed.conversations.map(async (c) => {
        const key = `dm:${[me, c.withUser.id].sort().join(":")}`;
        const marker = await tx.get(tables.chatReads, `${me}|${key}`);
        return tx.count(tables.chatMessages, "byConversation", { equals: [key], range: { gt: marker!.readPos } });
      })));
      expect(listed.conversations.map((c) => c.unread)).toEqual(expected);
      expect(new Set(expected)).toEqual(new Set([1, 2]));
      const total = n / 2 * 3;
      const [first] = listed.conversations;
      const read = await chat.markRead({ channel: first!.channel, messageId: first!.lastMessageId });
      expect(read.unreadTotal).toBe(total - first!.unread);
      counts.push({
        listConversations: await readsOf(w, () => chat.listConversations({ limit: 100 })),
        markRead: await readsOf(w, () => chat.markRead({ channel: first!.channel, messageId: first!.lastMessageId })),
      });
    }
    expectSameFewReads(counts);
  });

  it("should count unread messages right on conversations stored before messages were numbered, and number them from the next send", async () => {
    const w = await world();
    const { deps } = w.t.server;
    const me = w.viewer.user.userId;
    const [pal] = await crowd(w, 1, "pal");
    let sends = 0;
    const say = (from: string, to: string) => storeChat(deps, from, { channel: { kind: ChannelKind.Dm, id: to }, text: "hi", clientMessageId: `c${++sends}` });
    const unread = async () => (await w.viewer.client.chat.listConversations({})).conversations[0]!.unread;
    await say(pal!.id, me);
    const read = await say(pal!.id, me);
    await w.viewer.client.chat.markRead({ channel: `dm:${pal!.id}`, messageId: read.message.id });
    await say(pal!.id, me);
    await say(pal!.id, me);
    // Take away every number, as rows of an earlier version had none.
    await deps.storage.transact(async (tx) => {
      for (const { n: _n, ...message } of await tx.query(tables.chatMessages, "byConversation")) await tx.put(tables.chatMessages, message);
      for (const { count: _count, ...conversation } of await tx.query(tables.chatConversations, "primary")) await tx.put(tables.chatConversations, conversation);
      for (const { readCount: _readCount, ...marker } of await tx.query(tables.chatReads, "primary")) await tx.put(tables.chatReads, marker);
    });
    expect(await unread()).toBe(2);
    await say(pal!.id, me);
    expect(await unread()).toBe(3);
    const conversation = (await deps.storage.transact((tx) => tx.query(tables.chatConversations, "primary")))[0]!;
    expect(conversation.count).toBe(5);
    const last = await say(pal!.id, me);
    expect(last.message.n).toBe(6);
    await w.viewer.client.chat.markRead({ channel: `dm:${pal!.id}`, messageId: last.message.id });
    expect(await unread()).toBe(0);
    await say(pal!.id, me);
    expect(await unread()).toBe(1);
  });

  it("should search users in a few reads among 2,000 users whose names match", async () => {
    const w = await world();
    await crowd(w, 2000, "ada");
    const first = await w.viewer.client.social.searchUsers({ query: "ada", limit: 20 });
    expect(first.users).toHaveLength(20);
    const reads = await readsOf(w, () => w.viewer.client.social.searchUsers({ query: "ada", limit: 20 }));
    expect(reads).toBeLessThanOrEqual(FEW);
  });
});

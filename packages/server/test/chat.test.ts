import { createRealtime, type ChatAckEvent, type ChatMessageEvent, type WebSocketConstructor } from "@playfield/client";
import { Code, type ChatFilter } from "@playfield/core";
import { WebSocket } from "ws";
import { describe, expect, it } from "vitest";
import { expectError } from "./fixtures.js";
import { befriend, chatMessages, chatServer, CHILD_BIRTHDATE, received, send, sent, setWhoCanMessage, settle } from "./chat-world.js";

describe("chat_send", () => {
  describe("delivery", () => {
    it("should deliver a DM to every connection of both sides, each naming the channel by the other user, and acknowledge the sender", async () => {
      await using w = await chatServer();
      const ada = await w.account({ displayName: "Ada" });
      const bob = await w.account();
      const [bob2, ada2] = [await bob.connect(), await ada.connect()];
      const before = w.server.clock.now();
      const ack = await send(ada, `dm:${bob.id}`, "  hello bob  ", "first");
      expect(ack).toEqual({
        type: "chat_ack", clientMessageId: "first", messageId: expect.stringMatching(/^msg_/), channel: `dm:${bob.id}`,
        sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), duplicate: false,
      });
      expect(Date.parse(ack.sentAt as string)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(ack.sentAt as string)).toBeLessThanOrEqual(w.server.clock.now());
      const id = ack.messageId as string;
      for (const socket of [bob.socket, bob2]) {
        expect(await received(socket, id)).toEqual({
          type: "chat_message", messageId: id, channel: `dm:${ada.id}`, text: "hello bob", sentAt: ack.sentAt,
          sender: { id: ada.id, username: ada.user.username, displayName: "Ada", headshotUrl: expect.stringContaining(ada.id) },
        });
      }
      for (const socket of [ada.socket, ada2]) expect(await received(socket, id)).toMatchObject({ channel: `dm:${bob.id}`, text: "hello bob" });
    });

    it("should send and receive through the client's realtime connection, typed", async () => {
      await using w = await chatServer();
      const [ada, bob] = [await w.account({ connect: false }), await w.account()];
      const realtime = createRealtime(ada.client, { url: w.server.url, WebSocket: WebSocket as unknown as WebSocketConstructor });
      try {
        await realtime.ready();
        const acked = new Promise<ChatAckEvent>((resolve) => realtime.on("chat_ack", resolve));
        const echoed = new Promise<ChatMessageEvent>((resolve) => realtime.on("chat_message", resolve));
        expect(realtime.chat(`dm:${bob.id}`, "through the client", "k1")).toBe(true);
        const ack = await acked;
        expect(ack).toMatchObject({ clientMessageId: "k1", channel: `dm:${bob.id}`, duplicate: false });
        expect(await echoed).toMatchObject({ messageId: ack.messageId, channel: `dm:${bob.id}`, sender: { id: ada.id }, text: "through the client" });
        expect(await received(bob.socket, ack.messageId)).toMatchObject({ channel: `dm:${ada.id}` });
      } finally {
        realtime.close();
      }
    });

    it("should store and deliver a resent clientMessageId once, answering the same id", async () => {
      await using w = await chatServer();
      const [ada, bob] = [await w.account(), await w.account()];
      const first = await send(ada, `dm:${bob.id}`, "once", "same-id");
      await received(bob.socket, first.messageId as string);
      const again = await send(ada, `dm:${bob.id}`, "once", "same-id", await ada.connect());
      expect(again).toMatchObject({ type: "chat_ack", messageId: first.messageId, duplicate: true });
      await settle();
      expect(chatMessages(bob.socket)).toHaveLength(1);
      const { conversations } = await bob.client.chat.listConversations({});
      expect(conversations[0]).toMatchObject({ unread: 1, lastMessageId: first.messageId });
      const carol = await w.account();
      expect(await send(ada, `dm:${carol.id}`, "elsewhere", "same-id", await ada.connect())).toMatchObject({ type: "error", code: Code.InvalidArgument, message: expect.stringMatching(/^clientMessageId: /) });
    });

    it("should deliver a group message to the group's members only, and not to members who blocked the sender", async () => {
      await using w = await chatServer();
      const [ada, bob, cy, dee] = [await w.account(), await w.account(), await w.account(), await w.account()];
      const group = await ada.client.social.createGroup({ name: "Tide Pool Club", description: "" });
      await bob.client.social.joinGroup({ groupId: group.id });
      await cy.client.social.joinGroup({ groupId: group.id });
      await cy.client.social.block({ userId: ada.id });
      const id = await sent(ada, `group:${group.id}`, "welcome");
      expect(await received(bob.socket, id)).toMatchObject({ channel: `group:${group.id}`, text: "welcome", sender: { id: ada.id } });
      await received(ada.socket, id);
      await settle();
      expect(chatMessages(cy.socket)).toEqual([]);
      expect(chatMessages(dee.socket)).toEqual([]);
      expect(await send(dee, `group:${group.id}`, "hi")).toMatchObject({ type: "error", code: Code.NotFound, message: "channel: no such group of yours" });
    });

    it("should deliver a session message to the session's members only", async () => {
      await using w = await chatServer();
      const [ada, bob, cy] = [await w.account(), await w.account(), await w.account()];
      await w.server.seed.gameToken(ada.user, { sessionId: "gs_chat", experienceId: "exp_chat" });
      await w.server.seed.gameToken(bob.user, { sessionId: "gs_chat", experienceId: "exp_chat" });
      const id = await sent(bob, "session:gs_chat", "gg");
      expect(await received(ada.socket, id)).toMatchObject({ channel: "session:gs_chat", text: "gg" });
      expect(await send(cy, "session:gs_chat", "let me in")).toMatchObject({ type: "error", code: Code.NotFound, message: "channel: no such session of yours" });
      await settle();
      expect(chatMessages(cy.socket)).toEqual([]);
    });
  });

  describe("who may write where", () => {
    it("should refuse guests, and DMs to guests", async () => {
      await using w = await chatServer();
      const [ada, guest] = [await w.account(), await w.account({ guest: true })];
      await w.server.seed.gameToken(ada.user, { sessionId: "gs_g" });
      await w.server.seed.gameToken(guest.user, { sessionId: "gs_g" });
      for (const channel of [`dm:${ada.id}`, "session:gs_g"]) {
        expect(await send(guest, channel, "hi")).toMatchObject({ type: "error", about: "chat_send", code: Code.PermissionDenied, message: expect.stringMatching(/^guests cannot chat/) });
      }
      expect(await send(ada, `dm:${guest.id}`, "hi")).toMatchObject({ code: Code.FailedPrecondition, message: "channel: guests cannot chat" });
      // A guest in a session hears nothing of its chat.
      await sent(ada, "session:gs_g", "anyone here?");
      await settle();
      expect(chatMessages(guest.socket)).toEqual([]);
    });

    it("should follow the recipient's whoCanMessage", async () => {
      await using w = await chatServer();
      const [ada, bob, friend] = [await w.account(), await w.account(), await w.account()];
      await befriend(bob, friend);
      await bob.client.identity.updateSettings({ whoCanMessage: "friends" });
      expect(await send(ada, `dm:${bob.id}`, "hi")).toMatchObject({ code: Code.PermissionDenied, message: expect.stringMatching(/does not accept messages from you/) });
      await sent(friend, `dm:${bob.id}`, "hi friend");
      await bob.client.identity.updateSettings({ whoCanMessage: "nobody" });
      expect(await send(friend, `dm:${bob.id}`, "hi again")).toMatchObject({ code: Code.PermissionDenied });
      await bob.client.identity.updateSettings({ whoCanMessage: "everyone" });
      await sent(ada, `dm:${bob.id}`, "now?");
    });

    it("should refuse DMs across a block either way, to oneself and to unknown users", async () => {
      await using w = await chatServer();
      const [ada, bob, cy] = [await w.account(), await w.account(), await w.account()];
      await bob.client.social.block({ userId: ada.id });
      // Blocked by the recipient reads like a missing user.
      expect(await send(ada, `dm:${bob.id}`, "hi")).toMatchObject({ code: Code.NotFound, message: "channel: no such user" });
      expect(await send(ada, "dm:usr_nobody", "hi")).toMatchObject({ code: Code.NotFound, message: "channel: no such user" });
      expect(await send(bob, `dm:${ada.id}`, "hi")).toMatchObject({ code: Code.FailedPrecondition, message: expect.stringMatching(/you blocked this user/) });
      expect(await send(cy, `dm:${cy.id}`, "me")).toMatchObject({ code: Code.InvalidArgument, message: "channel: you cannot message yourself" });
    });

    it("should let under-13 users DM friends only, both ways, whatever their setting", async () => {
      await using w = await chatServer();
      const [kid, adult, friend] = [await w.account({ birthdate: CHILD_BIRTHDATE }), await w.account(), await w.account()];
      await befriend(kid, friend);
      await setWhoCanMessage(w.server, kid.id, "everyone");
      expect(await send(adult, `dm:${kid.id}`, "hi")).toMatchObject({ code: Code.PermissionDenied, message: expect.stringMatching(/does not accept messages from you/) });
      expect(await send(kid, `dm:${adult.id}`, "hi")).toMatchObject({ code: Code.PermissionDenied, message: "channel: under-13 accounts may message friends only" });
      await sent(friend, `dm:${kid.id}`, "hi kid");
      await sent(kid, `dm:${friend.id}`, "hi friend");
    });

    it("should refuse malformed channels, texts and clientMessageIds with the field and the rule", async () => {
      await using w = await chatServer();
      const [ada, bob] = [await w.account(), await w.account()];
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ channel: "room:1", text: "x", clientMessageId: "a1" }, /^channel: dm:<userId>, group:<id> or session:<id>$/],
        [{ text: "x", clientMessageId: "a2" }, /^channel: required$/],
        [{ channel: `dm:${bob.id}`, text: "   ", clientMessageId: "a3" }, /^text: required$/],
        [{ channel: `dm:${bob.id}`, text: "x".repeat(501), clientMessageId: "a4" }, /^text: at most 500 characters$/],
        [{ channel: `dm:${bob.id}`, text: "bell\u0007", clientMessageId: "a5" }, /^text: no control characters$/],
        [{ channel: `dm:${bob.id}`, text: "x" }, /^clientMessageId: required$/],
        [{ channel: `dm:${bob.id}`, text: "x", clientMessageId: "has space" }, /^clientMessageId: printable ASCII/],
      ];
      for (const [message, rule] of cases) {
        ada.socket.send({ type: "chat_send", ...message });
        const error = await ada.socket.next((m) => m.type === "error" && rule.test(String(m.message)));
        expect(error).toMatchObject({ about: "chat_send", code: Code.InvalidArgument });
      }
      await settle();
      expect(chatMessages(bob.socket)).toEqual([]);
      expect((await bob.client.chat.listConversations({})).conversations).toEqual([]);
    });
  });

  describe("text filter", () => {
    it("should mask denied words and contact details for under-13 readers and for everyone when the sender is under 13", async () => {
      await using w = await chatServer();
      const [kid, adult] = [await w.account({ birthdate: CHILD_BIRTHDATE }), await w.account()];
      const group = await adult.client.social.createGroup({ name: "Mixed Ages", description: "" });
      await kid.client.social.joinGroup({ groupId: group.id });
      const fromAdult = await sent(adult, `group:${group.id}`, "Damn, call 555 123 4567");
      expect(await received(adult.socket, fromAdult)).toMatchObject({ text: "Damn, call 555 123 4567" });
      expect(await received(kid.socket, fromAdult)).toMatchObject({ text: "####, call ############" });
      const fromKid = await sent(kid, `group:${group.id}`, "what the shit");
      expect(await received(adult.socket, fromKid)).toMatchObject({ text: "what the ####" });
      expect((await adult.client.chat.listConversations({})).conversations[0]!.lastMessage).toBe("what the ####");
      await sent(adult, `group:${group.id}`, "crap");
      expect((await kid.client.chat.listConversations({})).conversations[0]!.lastMessage).toBe("####");
      expect((await adult.client.chat.listConversations({})).conversations[0]!.lastMessage).toBe("crap");
    });

    it("should use the chatFilter server part when one is given", async () => {
      const shout: ChatFilter = { filter: (text, audience) => (audience.childSafe ? "[hidden]" : text.toUpperCase()) };
      await using w = await chatServer({ chatFilter: shout });
      const [ada, bob] = [await w.account(), await w.account()];
      const id = await sent(ada, `dm:${bob.id}`, "quiet please");
      expect(await received(bob.socket, id)).toMatchObject({ text: "QUIET PLEASE" });
    });
  });
});

describe("ChatService", () => {
  describe("listConversations", () => {
    it("should list conversations newest first with title, withUser, last message, sender, time, unread and id", async () => {
      await using w = await chatServer();
      const ada = await w.account({ displayName: "Ada" });
      const [bob, cy] = [await w.account({ displayName: "Bob" }), await w.account()];
      const group = await bob.client.social.createGroup({ name: "Reef Builders", description: "" });
      await ada.client.social.joinGroup({ groupId: group.id });
      w.server.clock.advance(1000);
      await sent(bob, `dm:${ada.id}`, "one");
      const lastDm = await sent(bob, `dm:${ada.id}`, "two");
      w.server.clock.advance(1000);
      const groupAck = await send(bob, `group:${group.id}`, "meeting at noon");
      const groupMessage = groupAck.messageId as string;
      w.server.clock.advance(1000);
      await sent(ada, `dm:${cy.id}`, "hey cy");
      const { conversations } = await ada.client.chat.listConversations({});
      expect(conversations.map((c) => c.channel)).toEqual([`dm:${cy.id}`, `group:${group.id}`, `dm:${bob.id}`]);
      const bobSummary = { id: bob.id, username: bob.user.username, displayName: "Bob", headshotUrl: expect.any(String) };
      expect(conversations[0]).toMatchObject({ unread: 0, lastMessage: "hey cy", lastSender: { id: ada.id }, withUser: { id: cy.id } });
      expect(conversations[1]).toEqual({
        channel: `group:${group.id}`, title: "Reef Builders", withUser: { id: "", username: "", displayName: "", headshotUrl: "" },
        lastMessage: "meeting at noon", lastSender: bobSummary, lastAt: groupAck.sentAt as string, unread: 1, lastMessageId: groupMessage,
      });
      expect(conversations[2]).toMatchObject({ title: "Bob", withUser: bobSummary, lastMessage: "two", lastSender: bobSummary, unread: 2, lastMessageId: lastDm });
      expect((await ada.client.chat.listConversations({ limit: 2 })).conversations.map((c) => c.channel)).toEqual([`dm:${cy.id}`, `group:${group.id}`]);
      // The other side names the DM by Ada, with nothing unread (sending reads).
      expect((await bob.client.chat.listConversations({})).conversations.find((c) => c.channel === `dm:${ada.id}`)).toMatchObject({ title: "Ada", unread: 0 });
      await expectError(ada.client.chat.listConversations({ limit: 101 }), Code.InvalidArgument, /limit/);
    });

    it("should title a session conversation by its experience, and not count messages from before a member joined", async () => {
      await using w = await chatServer();
      const [ada, bob, cy] = [await w.account(), await w.account(), await w.account()];
      const now = w.server.clock.now();
      await w.server.deps.storage.transact(async (tx) => {
        const { tables } = await import("@playfield/core");
        await tx.put(tables.experiences, {
          id: "exp_reef", creatorId: ada.id, title: "Reef Race", description: "", genre: "racing", thumbnailUrl: "", visibility: "public", hostingTier: "peer",
          maxPlayers: 8, startPlaceId: "plc", liveVersionId: null, createdAt: now, updatedAt: now, visits: 0, favorites: 0, upVotes: 0, downVotes: 0,
        });
        await tx.put(tables.gameSessions, { id: "gs_reef", experienceId: "exp_reef", placeVersionId: "v", hostingTier: "peer", maxPlayers: 8, hostUserId: ada.id, memberCount: 2, createdAt: now, closedAt: null });
      });
      await w.server.seed.gameToken(ada.user, { sessionId: "gs_reef", experienceId: "exp_reef" });
      await w.server.seed.gameToken(bob.user, { sessionId: "gs_reef", experienceId: "exp_reef" });
      await sent(ada, "session:gs_reef", "before cy");
      w.server.clock.advance(10);
      await w.server.seed.gameToken(cy.user, { sessionId: "gs_reef", experienceId: "exp_reef" });
      const after = await sent(ada, "session:gs_reef", "after cy");
      const [conversation] = (await cy.client.chat.listConversations({})).conversations;
      expect(conversation).toMatchObject({ channel: "session:gs_reef", title: "Reef Race", unread: 1, lastMessageId: after });
      expect((await bob.client.chat.listConversations({})).conversations[0]).toMatchObject({ unread: 2 });
    });

    it("should refuse guests (no chat)", async () => {
      await using w = await chatServer();
      const guest = await w.account({ guest: true, connect: false });
      await expectError(guest.client.chat.listConversations({}), Code.PermissionDenied);
    });
  });

  describe("markRead", () => {
    it("should read everything up to and including a message and answer the caller's unread total", async () => {
      await using w = await chatServer();
      const [ada, bob, cy] = [await w.account(), await w.account(), await w.account()];
      const ids = [];
      for (const text of ["a", "b", "c"]) ids.push(await sent(bob, `dm:${ada.id}`, text));
      await sent(cy, `dm:${ada.id}`, "from cy");
      expect(await ada.client.chat.markRead({ channel: `dm:${bob.id}`, messageId: ids[1]! })).toEqual({ unreadTotal: 2 });
      // Markers only move forward.
      expect(await ada.client.chat.markRead({ channel: `dm:${bob.id}`, messageId: ids[0]! })).toEqual({ unreadTotal: 2 });
      const unread = Object.fromEntries((await ada.client.chat.listConversations({})).conversations.map((c) => [c.channel, c.unread]));
      expect(unread).toEqual({ [`dm:${bob.id}`]: 1, [`dm:${cy.id}`]: 1 });
      expect(await ada.client.chat.markRead({ channel: `dm:${bob.id}`, messageId: ids[2]! })).toEqual({ unreadTotal: 1 });
    });

    it("should refuse unknown messages, messages of another channel and channels that are not the caller's", async () => {
      await using w = await chatServer();
      const [ada, bob, cy] = [await w.account(), await w.account(), await w.account()];
      const toAda = await sent(bob, `dm:${ada.id}`, "hi");
      const toCy = await sent(bob, `dm:${cy.id}`, "hi");
      await expectError(ada.client.chat.markRead({ channel: `dm:${bob.id}`, messageId: "msg_none" }), Code.NotFound, /^messageId: no such message in channel/);
      await expectError(ada.client.chat.markRead({ channel: `dm:${bob.id}`, messageId: toCy }), Code.NotFound, /^messageId: /);
      await expectError(ada.client.chat.markRead({ channel: `dm:${cy.id}`, messageId: toCy }), Code.NotFound, /^channel: no such conversation/);
      await expectError(ada.client.chat.markRead({ channel: "group:grp_none", messageId: toAda }), Code.NotFound, /^channel: no such group of yours/);
      await expectError(ada.client.chat.markRead({ channel: `dm:${bob.id}`, messageId: "" }), Code.InvalidArgument, /^messageId: required/);
      await expectError(ada.client.chat.markRead({ channel: "room:1", messageId: toAda }), Code.InvalidArgument, /^channel: /);
    });
  });
});

describe("ReportPlayer messageId", () => {
  it("should accept a message the reported user sent and refuse others' or unknown ones", async () => {
    await using w = await chatServer();
    const [ada, bob] = [await w.account(), await w.account()];
    const fromBob = await sent(bob, `dm:${ada.id}`, "rude words");
    const fromAda = await sent(ada, `dm:${bob.id}`, "stop");
    const base = { userId: bob.id, category: "harassment" };
    expect((await ada.client.safety.reportPlayer({ ...base, messageId: fromBob })).reportId).toMatch(/^rpt_/);
    await expectError(ada.client.safety.reportPlayer({ ...base, messageId: fromAda }), Code.NotFound, /^messageId: no such message from userId/);
    await expectError(ada.client.safety.reportPlayer({ ...base, messageId: "msg_none" }), Code.NotFound, /^messageId: /);
  });
});

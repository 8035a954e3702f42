import { Code } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { createMemoryServer } from "@playfield/server-memory";
import { DEFAULT_CHAT_RATE, resolveChatRate } from "../src/services/chat/rate.js";
import { answers, chatMessages, freshId, KINDS, rateWorld, send, settle, type Link } from "./chat-rate-world.js";

/** The default limit, asked for explicitly: the "test" environment runs without one. */
const LIMITED = { chatRate: {} };
const EXHAUSTED = /^rate limit: 10 messages at once, then one every 1000 ms; retry after \d+ ms$/;

/** Sends `count` messages, each awaited; answers their message ids (every one must be accepted). */
async function burst(link: Link, channel: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await send(link, channel, `message ${i}`);
    expect(answer, JSON.stringify(answer)).toMatchObject({ type: "chat_ack", duplicate: false });
    ids.push(answer.messageId as string);
  }
  return ids;
}

describe.each(KINDS)("chat send rate limit (%s)", (kind) => {
  it("should accept a burst of 10, refuse the 11th with resource_exhausted and retryAfterMs, and accept again once a token has grown back", async () => {
    await using w = await rateWorld(kind, LIMITED);
    const [ada, bob] = [await w.account(), await w.account()];
    const link = await ada.connect();
    await burst(link, `dm:${bob.id}`, 10);
    const refused = await send(link, `dm:${bob.id}`, "one too many", "over-1");
    expect(refused).toEqual({
      type: "error", about: "chat_send", code: Code.ResourceExhausted, clientMessageId: "over-1",
      message: "rate limit: 10 messages at once, then one every 1000 ms; retry after 1000 ms", retryAfterMs: 1000,
    });
    w.server.clock.advance(999);
    expect(await send(link, `dm:${bob.id}`, "still too soon")).toMatchObject({ code: Code.ResourceExhausted, retryAfterMs: 1 });
    w.server.clock.advance(1);
    expect(await send(link, `dm:${bob.id}`, "on time")).toMatchObject({ type: "chat_ack", duplicate: false });
    // The sustained rate: one a second, no second burst.
    expect(await send(link, `dm:${bob.id}`, "again at once")).toMatchObject({ code: Code.ResourceExhausted, retryAfterMs: 1000 });
    w.server.clock.advance(10_000);
    await burst(link, `dm:${bob.id}`, 10);
  });

  it("should count every connection of a user against one limit, and each user against their own", async () => {
    await using w = await rateWorld(kind, LIMITED);
    const [ada, bob] = [await w.account(), await w.account()];
    const [first, second] = [await ada.connect(), await ada.connect()];
    await burst(first, `dm:${bob.id}`, 5);
    await burst(second, `dm:${bob.id}`, 5);
    for (const link of [first, second]) {
      expect(await send(link, `dm:${bob.id}`, "over")).toMatchObject({ code: Code.ResourceExhausted, message: expect.stringMatching(EXHAUSTED) });
    }
    // Bob's bucket is his own: full, in the same conversation.
    await burst(await bob.connect(), `dm:${ada.id}`, 10);
  });

  it("should admit exactly 10 of 15 sends fired at once from two connections", async () => {
    await using w = await rateWorld(kind, LIMITED);
    const [ada, bob] = [await w.account(), await w.account()];
    const links = [await ada.connect(), await ada.connect()];
    const ids = Array.from({ length: 15 }, freshId);
    ids.forEach((clientMessageId, i) => links[i % 2]!.send({ type: "chat_send", channel: `dm:${bob.id}`, text: `fired ${i}`, clientMessageId }));
    const replies = await Promise.all(ids.map((id, i) => links[i % 2]!.next(answers(id))));
    expect(replies.filter((m) => m.type === "chat_ack")).toHaveLength(10);
    expect(replies.filter((m) => m.code === Code.ResourceExhausted)).toHaveLength(5);
  });

  it("should neither store nor deliver a refused message, nor count it unread, nor use up its clientMessageId", async () => {
    await using w = await rateWorld(kind, LIMITED);
    const [ada, bob] = [await w.account(), await w.account()];
    const [link, bobLink] = [await ada.connect(), await bob.connect()];
    const ids = await burst(link, `dm:${bob.id}`, 10);
    expect(await send(link, `dm:${bob.id}`, "refused words", "refused-id")).toMatchObject({ code: Code.ResourceExhausted });
    await bobLink.next((m) => m.type === "chat_message" && m.messageId === ids[9]);
    await settle();
    expect(chatMessages(bobLink).map((m) => m.text)).not.toContain("refused words");
    expect(chatMessages(bobLink)).toHaveLength(10);
    const { conversations } = await bob.client.chat.listConversations({});
    expect(conversations).toEqual([expect.objectContaining({ channel: `dm:${ada.id}`, unread: 10, lastMessageId: ids[9], lastMessage: "message 9" })]);
    // Later the same clientMessageId is a new message, not a resend of something stored.
    w.server.clock.advance(1000);
    const later = await send(link, `dm:${bob.id}`, "refused words", "refused-id");
    expect(later).toMatchObject({ type: "chat_ack", duplicate: false });
    expect(await bobLink.next((m) => m.type === "chat_message" && m.messageId === later.messageId)).toMatchObject({ text: "refused words" });
  });

  it("should answer a resend of an accepted clientMessageId without taking a token, even with none left", async () => {
    await using w = await rateWorld(kind, LIMITED);
    const [ada, bob] = [await w.account(), await w.account()];
    const link = await ada.connect();
    const first = await send(link, `dm:${bob.id}`, "lost ack?", "kept-id");
    for (let i = 0; i < 5; i++) {
      expect(await send(link, `dm:${bob.id}`, "lost ack?", "kept-id")).toMatchObject({ type: "chat_ack", messageId: first.messageId, duplicate: true });
    }
    // The five resends cost nothing: nine new messages still fit in the burst.
    await burst(link, `dm:${bob.id}`, 9);
    expect(await send(link, `dm:${bob.id}`, "over")).toMatchObject({ code: Code.ResourceExhausted });
    // With the bucket empty, a resend is still answered (a client retrying after a lost ack gets its ack).
    expect(await send(link, `dm:${bob.id}`, "lost ack?", "kept-id")).toMatchObject({ type: "chat_ack", messageId: first.messageId, duplicate: true });
  });

  it("should not charge messages refused for other reasons", async () => {
    await using w = await rateWorld(kind, LIMITED);
    const [ada, bob, cy] = [await w.account(), await w.account(), await w.account()];
    await cy.client.identity.updateSettings({ whoCanMessage: "nobody" });
    const link = await ada.connect();
    for (let i = 0; i < 6; i++) {
      expect(await send(link, `dm:${cy.id}`, "hello?")).toMatchObject({ code: Code.PermissionDenied });
      expect(await send(link, `dm:${bob.id}`, "")).toMatchObject({ code: Code.InvalidArgument });
    }
    await burst(link, `dm:${bob.id}`, 10);
  });
});

describe("chatRate option", () => {
  it("should default to 10 at once and one every 1000 ms outside the test environment, and be off in it", () => {
    expect(DEFAULT_CHAT_RATE).toEqual({ burst: 10, intervalMs: 1000 });
    expect(createMemoryServer({ environment: "production" }).deps.config.chatRate).toEqual({ burst: 10, intervalMs: 1000 });
    expect(createMemoryServer({ environment: "development" }).deps.config.chatRate).toEqual({ burst: 10, intervalMs: 1000 });
    expect(createMemoryServer().deps.config.chatRate).toBeNull();
    expect(createMemoryServer({ environment: "production", chatRate: null }).deps.config.chatRate).toBeNull();
    expect(createMemoryServer({ chatRate: { burst: 3 } }).deps.config.chatRate).toEqual({ burst: 3, intervalMs: 1000 });
  });

  it("should refuse a limit that is not a positive integer", () => {
    for (const bad of [{ burst: 0 }, { intervalMs: -1 }, { burst: 1.5 }, { intervalMs: Number.NaN }]) {
      expect(() => resolveChatRate(bad, "production")).toThrow(/^chatRate\.(burst|intervalMs): a positive integer/);
    }
  });

  it("should take a configured burst and interval", async () => {
    await using w = await rateWorld("in-process", { chatRate: { burst: 2, intervalMs: 250 } });
    const [ada, bob] = [await w.account(), await w.account()];
    const link = await ada.connect();
    await burst(link, `dm:${bob.id}`, 2);
    expect(await send(link, `dm:${bob.id}`, "third")).toMatchObject({
      code: Code.ResourceExhausted, retryAfterMs: 250, message: "rate limit: 2 messages at once, then one every 250 ms; retry after 250 ms",
    });
    w.server.clock.advance(250);
    await burst(link, `dm:${bob.id}`, 1);
  });

  it("should send without a limit when it is off", async () => {
    await using w = await rateWorld("in-process", { chatRate: null });
    const [ada, bob] = [await w.account(), await w.account()];
    await burst(await ada.connect(), `dm:${bob.id}`, 30);
  });
});

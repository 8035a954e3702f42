import type { ServerEventMap } from "@playfield/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chatSendHandler } from "../src/realtime/chat-handler.js";
import type { RealtimeEvent } from "../src/ports/realtime-hub.js";
import { testServer } from "./fixtures.js";
import { member, type Member } from "./social-fixtures.js";

/*
 * Unread counts against a model: three adults in one group and the DMs
 * between them, random sends (`chat_send` through the realtime handler),
 * MarkReads of random messages and clock steps (several messages in one
 * millisecond included). After every step each user's ListConversations
 * unread counts, and MarkRead's unreadTotal, equal the model's.
 */

type Action =
  | { kind: "send"; from: number; to: number | "group" }
  | { kind: "read"; user: number; to: number | "group"; pick: number }
  | { kind: "tick"; ms: number };

const USERS = 3;
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("send" as const), from: fc.nat(USERS - 1), to: fc.oneof(fc.nat(USERS - 1), fc.constant("group" as const)) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("read" as const), user: fc.nat(USERS - 1), to: fc.oneof(fc.nat(USERS - 1), fc.constant("group" as const)), pick: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("tick" as const), ms: fc.nat(2) }) },
);

/** The model: messages per conversation and each user's read marker (an index) per conversation. */
class Model {
  messages = new Map<string, { id: string; sender: number }[]>();
  markers = new Map<string, number>();
  key(user: number, to: number | "group"): string | null {
    if (to === "group") return "group";
    if (to === user) return null;
    return `dm:${Math.min(user, to)}:${Math.max(user, to)}`;
  }
  sees(user: number, key: string): boolean {
    return key === "group" || key.split(":").slice(1).map(Number).includes(user);
  }
  unread(user: number, key: string): number {
    const list = this.messages.get(key) ?? [];
    return list.length - 1 - (this.markers.get(`${user}|${key}`) ?? -1);
  }
  total(user: number): number {
    let n = 0;
    for (const key of this.messages.keys()) if (this.sees(user, key)) n += this.unread(user, key);
    return n;
  }
  read(user: number, key: string, index: number): void {
    const id = `${user}|${key}`;
    this.markers.set(id, Math.max(this.markers.get(id) ?? -1, index));
  }
}

describe("chat unread counts", () => {
  it("should equal a model's under random sends, reads and clock steps", async () => {
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), async (actions) => {
      await using t = await testServer("in-process");
      const users: Member[] = [];
      for (let i = 0; i < USERS; i++) users.push(await member(t));
      const group = await users[0]!.client.social.createGroup({ name: "Model Group", description: "" });
      for (const u of users.slice(1)) await u.client.social.joinGroup({ groupId: group.id });
      t.server.clock.advance(1);
      const channelOf = (user: number, to: number | "group") => (to === "group" ? `group:${group.id}` : `dm:${users[to]!.user.userId}`);
      const model = new Model();
      let sends = 0;

      for (const step of actions) {
        if (step.kind === "tick") {
          t.server.clock.advance(step.ms);
          continue;
        }
        const user = step.kind === "send" ? step.from : step.user;
        const key = model.key(user, step.to);
        if (key === null) continue;
        if (step.kind === "send") {
          const replies: RealtimeEvent[] = [];
          sends += 1;
          await chatSendHandler(
            { type: "chat_send", channel: channelOf(user, step.to), text: `m${sends}`, clientMessageId: `c${sends}` },
            { deps: t.server.deps, userId: users[user]!.user.userId, deviceId: "", reply: (e) => replies.push(e) },
          );
          expect(replies).toEqual([expect.objectContaining({ type: "chat_ack", duplicate: false })]);
          const list = model.messages.get(key) ?? [];
          list.push({ id: (replies[0] as ServerEventMap["chat_ack"]).messageId, sender: user });
          model.messages.set(key, list);
          model.read(user, key, list.length - 1);
          continue;
        }
        const list = model.messages.get(key) ?? [];
        if (list.length === 0) continue;
        const index = step.pick % list.length;
        model.read(user, key, index);
        const answer = await users[user]!.client.chat.markRead({ channel: channelOf(user, step.to), messageId: list[index]!.id });
        expect(answer.unreadTotal).toBe(model.total(user));
      }

      for (let u = 0; u < USERS; u++) {
        const { conversations } = await users[u]!.client.chat.listConversations({});
        const actual = Object.fromEntries(conversations.map((c) => [c.channel, c.unread]));
        const expected: Record<string, number> = {};
        for (const key of model.messages.keys()) {
          if (!model.sees(u, key)) continue;
          const other = key === "group" ? "group" : key.split(":").slice(1).map(Number).find((x) => x !== u)!;
          expected[channelOf(u, other)] = model.unread(u, key);
        }
        expect(actual).toEqual(expected);
      }
    }), { numRuns: 25 });
  });
});

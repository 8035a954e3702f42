import { Code } from "@playfield/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rateWorld, send } from "./chat-rate-world.js";

/*
 * The chat send limit against a model, through two in-process connections
 * of one user: random new messages, resends of earlier ids (accepted or
 * refused) and clock steps. The model is a token bucket of whole
 * milliseconds; a resend of an accepted id is always answered with its ack
 * and costs nothing; in the end the recipient's unread count is the number
 * of messages accepted.
 */

type Action =
  | { kind: "send"; link: 0 | 1 }
  | { kind: "resend"; link: 0 | 1; pick: number }
  | { kind: "tick"; ms: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("send" as const), link: fc.constantFrom(0 as const, 1 as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("resend" as const), link: fc.constantFrom(0 as const, 1 as const), pick: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("tick" as const), ms: fc.oneof(fc.nat(300), fc.nat(3000)) }) },
);

const RULE = { burst: 4, intervalMs: 500 };

describe("chat send rate limit (model)", () => {
  it("should accept exactly what a token bucket accepts, never charging resends", async () => {
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 40 }), async (actions) => {
      await using w = await rateWorld("in-process", { chatRate: RULE });
      const [ada, bob] = [await w.account(), await w.account()];
      const links = [await ada.connect(), await ada.connect()] as const;
      const channel = `dm:${bob.id}`;
      const capacity = RULE.burst * RULE.intervalMs;
      let level = capacity;
      const tried: { id: string; messageId: string | null }[] = [];

      for (const [i, step] of actions.entries()) {
        if (step.kind === "tick") {
          w.server.clock.advance(step.ms);
          level = Math.min(capacity, level + step.ms);
          continue;
        }
        const earlier = step.kind === "resend" && tried.length > 0 ? tried[step.pick % tried.length]! : null;
        const id = earlier?.id ?? `p${i}`;
        const answer = await send(links[step.link], channel, `text ${i}`, id);
        if (earlier?.messageId) {
          expect(answer).toMatchObject({ type: "chat_ack", duplicate: true, messageId: earlier.messageId });
          continue;
        }
        const allowed = level >= RULE.intervalMs;
        if (allowed) {
          level -= RULE.intervalMs;
          expect(answer).toMatchObject({ type: "chat_ack", duplicate: false });
        } else {
          expect(answer).toMatchObject({ type: "error", code: Code.ResourceExhausted, retryAfterMs: RULE.intervalMs - level });
        }
        const messageId = allowed ? (answer.messageId as string) : null;
        if (earlier) earlier.messageId = messageId;
        else tried.push({ id, messageId });
      }

      const accepted = tried.filter((t) => t.messageId !== null).length;
      const { conversations } = await bob.client.chat.listConversations({});
      expect(conversations.reduce((n, c) => n + c.unread, 0)).toBe(accepted);
    }), { numRuns: 30 });
  });
});

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Code, PlayfieldError } from "@playfield/core";
import { testServer } from "./fixtures.js";
import { members, type Member } from "./social-fixtures.js";

/*
 * Model-based property: any sequence of friend, follow and block moves
 * between a few users leaves both sides' views of every pair as a plain
 * model of the rules says, and each move answers what the model expects.
 */

type Op = "send" | "accept" | "decline" | "remove" | "follow" | "unfollow" | "block" | "unblock";
const OPS: Op[] = ["send", "accept", "decline", "remove", "follow", "unfollow", "block", "unblock"];
const USERS = 3;

/** The rules, written plainly over sets of pairs. */
class Model {
  friends = new Set<string>();
  requests = new Set<string>();
  follows = new Set<string>();
  blocks = new Set<string>();

  /** Applies a move of `a` on `b`; answers the error code it must fail with, or null. */
  apply(op: Op, a: number, b: number): Code | null {
    const k = (x: number, y: number) => `${x}:${y}`;
    const blockedByB = this.blocks.has(k(b, a));
    const blockedB = this.blocks.has(k(a, b));
    const areFriends = this.friends.has(k(a, b));
    const sever = () => {
      for (const set of [this.friends, this.requests, this.follows]) { set.delete(k(a, b)); set.delete(k(b, a)); }
    };
    switch (op) {
      case "block": sever(); this.blocks.add(k(a, b)); return null;
      case "unblock": this.blocks.delete(k(a, b)); return null;
      case "unfollow": this.follows.delete(k(a, b)); return null;
    }
    if (blockedByB) return Code.NotFound;
    switch (op) {
      case "send":
      case "accept":
        if (blockedB) return Code.FailedPrecondition;
        if (areFriends) return null;
        if (this.requests.has(k(b, a))) { this.requests.delete(k(b, a)); this.friends.add(k(a, b)); this.friends.add(k(b, a)); return null; }
        if (op === "accept") return Code.FailedPrecondition;
        this.requests.add(k(a, b));
        return null;
      case "decline": this.requests.delete(k(a, b)); this.requests.delete(k(b, a)); return null;
      case "remove": this.friends.delete(k(a, b)); this.friends.delete(k(b, a)); this.requests.delete(k(a, b)); this.requests.delete(k(b, a)); return null;
      case "follow":
        if (blockedB) return Code.FailedPrecondition;
        this.follows.add(k(a, b));
        return null;
      default: return null;
    }
  }

  relationship(a: number, b: number): string {
    if (this.friends.has(`${a}:${b}`)) return "friends";
    if (this.requests.has(`${a}:${b}`)) return "request_sent";
    if (this.requests.has(`${b}:${a}`)) return "request_received";
    return "none";
  }
}

async function call(user: Member, op: Op, target: string): Promise<Code | null> {
  const s = user.client.social;
  const req = { userId: target };
  const calls: Record<Op, () => Promise<unknown>> = {
    send: () => s.sendFriendRequest(req), accept: () => s.acceptFriendRequest(req), decline: () => s.declineFriendRequest(req),
    remove: () => s.removeFriend(req), follow: () => s.follow(req), unfollow: () => s.unfollow(req), block: () => s.block(req), unblock: () => s.unblock(req),
  };
  try {
    await calls[op]();
    return null;
  } catch (error) {
    if (error instanceof PlayfieldError) return error.code;
    throw error;
  }
}

const move = fc.record({
  op: fc.constantFrom(...OPS),
  a: fc.integer({ min: 0, max: USERS - 1 }),
  d: fc.integer({ min: 1, max: USERS - 1 }),
});

describe("SocialService relationships (model)", () => {
  it("should keep both sides' views of every pair as the model says, whatever the moves", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 24 }), async (moves) => {
        await using t = await testServer("in-process");
        const users = await members(t, USERS);
        const model = new Model();
        for (const { op, a, d } of moves) {
          const b = (a + d) % USERS;
          const expected = model.apply(op, a, b);
          expect(await call(users[a]!, op, users[b]!.user.userId), `${op} ${a}→${b}`).toBe(expected);
        }
        for (let a = 0; a < USERS; a++) {
          const friends = (await users[a]!.client.social.listFriends({})).friends.map((f) => f.user.id).sort();
          expect(friends).toEqual(users.filter((_, b) => model.friends.has(`${a}:${b}`)).map((u) => u.user.userId).sort());
          const requests = await users[a]!.client.social.listFriendRequests();
          expect(requests.incoming.length).toBe([...model.requests].filter((r) => r.endsWith(`:${a}`)).length);
          expect(requests.outgoing.length).toBe([...model.requests].filter((r) => r.startsWith(`${a}:`)).length);
          for (let b = 0; b < USERS; b++) {
            if (a === b) continue;
            const view = users[a]!.client.social.getProfile({ userId: users[b]!.user.userId });
            if (model.blocks.has(`${b}:${a}`)) {
              await expect(view).rejects.toMatchObject({ code: Code.NotFound });
              continue;
            }
            const profile = await view;
            expect(profile.relationship, `${a} sees ${b}`).toBe(model.relationship(a, b));
            expect(profile.following).toBe(model.follows.has(`${a}:${b}`));
            expect(profile.followerCount).toBe([...model.follows].filter((f) => f.endsWith(`:${b}`)).length);
          }
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);
});

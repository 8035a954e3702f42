import { fail, tables, type SocialService, type Tx, type UserRow } from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { liveUsers, userSummary } from "../identity/accounts.js";
import { announcePresence } from "../presence/feed.js";
import { areFriends, severPair } from "./graph.js";

/* SocialService: blocking. Block ends friendship, requests and follows both ways; see social-graph.ts for the checks other services make. */

/** Blocked users ListBlocked answers at most (oldest block first). */
export const BLOCK_LIST_MAX = 1000;

async function existingUser(tx: Tx, userId: string, me: string): Promise<UserRow> {
  if (userId === me) throw fail.invalid("userId: you cannot block yourself");
  const user = await tx.get(tables.users, userId);
  // A user who blocked the caller can still be blocked back: existence is all that counts.
  if (!user || user.deletedAt !== null) throw fail.notFound("userId: no such user");
  return user;
}

export const blockMethods: ServiceImpl<typeof SocialService> = {
  async block(req, ctx) {
    const me = ctx.user().userId;
    const { deps } = ctx;
    const unfriended = await deps.storage.transact(async (tx) => {
      const user = await existingUser(tx, req.userId, me);
      const wereFriends = await areFriends(tx, me, user.id);
      await severPair(tx, me, user.id);
      const id = `${me}:${user.id}`;
      if (!(await tx.get(tables.blocks, id))) await tx.put(tables.blocks, { id, blockerId: me, blockedId: user.id, createdAt: deps.clock.now() });
      return wereFriends ? user.id : null;
    });
    // Former friends stop seeing each other's presence (their last word is `offline`).
    if (unfriended) await announcePresence(deps, [me, unfriended]);
    return { blocked: true };
  },

  async unblock(req, ctx) {
    const me = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      const user = await existingUser(tx, req.userId, me);
      await tx.delete(tables.blocks, `${me}:${user.id}`);
      return { blocked: false };
    });
  },

  async listBlocked(_req, ctx) {
    const me = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      const rows = await tx.query(tables.blocks, "byBlocker", { equals: [me], limit: BLOCK_LIST_MAX });
      const users = await liveUsers(tx, rows.map((block) => block.blockedId));
      return { users: users.map(userSummary) };
    });
  },
};

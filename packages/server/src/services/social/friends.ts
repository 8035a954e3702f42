import {
  applyFriendMove, countMutual, fail, FriendMove, mayRequestFriendship, relationshipOf, tables,
  type MethodOutput, type MethodRequest, type SocialService,
} from "@playfield/core";
import type { HandlerContext } from "../../rpc/handler-context.js";
import type { ServiceImpl } from "../../rpc/router.js";
import { liveUsers, userSummary } from "../identity/accounts.js";
import { presencesOf } from "../presence/presence.js";
import { announcePresence } from "../presence/feed.js";
import { socialTarget, visibleUser } from "./access.js";
import { blockersAmong, friendIds, friendsAmong, hasBlocked, isFollowing, pairFacts, writePairFacts } from "./graph.js";

/* SocialService: friends (the state machine of domain/relationship.ts), friend requests, follows. */

type FriendRef = MethodRequest<typeof SocialService.methods.sendFriendRequest>;
type FriendAnswer = MethodOutput<typeof SocialService.methods.sendFriendRequest>;

/** Friends and requests listed at most (oldest first; the spec has no paging here). */
export const FRIEND_LIST_MAX = 1000;

const PRESENCE_ORDER = { in_game: 0, online: 1, offline: 2 } as const;

async function friendMove(move: FriendMove, req: FriendRef, ctx: HandlerContext): Promise<FriendAnswer> {
  const me = ctx.user().userId;
  const { deps } = ctx;
  const { answer, friendship } = await deps.storage.transact(async (tx) => {
    const target = await socialTarget(tx, req.userId, me, "friend");
    const opening = move === FriendMove.Send || move === FriendMove.Accept;
    if (opening && (await hasBlocked(tx, me, target.id))) throw fail.precondition("userId: you blocked this user: unblock first");
    const before = await pairFacts(tx, me, target.id);
    const result = applyFriendMove(move, before);
    if (!result.ok) throw fail.precondition(`userId: ${result.reason}`);
    if (result.opensRequest) {
      const setting = target.settings.whoCanFriend;
      const mutual = setting === "friends" ? countMutual(await friendIds(tx, me), await friendIds(tx, target.id)) : 0;
      if (!mayRequestFriendship(setting, mutual)) {
        throw fail.denied(setting === "nobody" ? "userId: this user does not accept friend requests" : "userId: this user accepts friend requests only from friends of friends");
      }
    }
    await writePairFacts(tx, me, target.id, before, result.next, deps.clock.now());
    return { answer: { relationship: relationshipOf(result.next) }, friendship: before.friends !== result.next.friends ? target.id : null };
  });
  // Friends see each other's presence: a new friend learns it, a former one hears `offline`.
  if (friendship) await announcePresence(deps, [me, friendship]);
  return answer;
}

export const friendMethods: ServiceImpl<typeof SocialService> = {
  sendFriendRequest: (req, ctx) => friendMove(FriendMove.Send, req, ctx),
  acceptFriendRequest: (req, ctx) => friendMove(FriendMove.Accept, req, ctx),
  declineFriendRequest: (req, ctx) => friendMove(FriendMove.Decline, req, ctx),
  removeFriend: (req, ctx) => friendMove(FriendMove.Remove, req, ctx),

  async listFriends(req, ctx) {
    const viewer = ctx.viewerId;
    const targetId = req.userId || viewer;
    if (!targetId) throw fail.invalid("userId: required when not signed in");
    const { deps } = ctx;
    return deps.storage.transact(async (tx) => {
      const target = await visibleUser(tx, targetId, viewer);
      const edges = await tx.query(tables.friendEdges, "byUser", { equals: [target.id], limit: FRIEND_LIST_MAX });
      const live = await liveUsers(tx, edges.map((edge) => edge.friendId));
      // The blocker does not appear to the one they blocked.
      const others = viewer === null ? [] : live.map((friend) => friend.id).filter((id) => id !== viewer);
      const blockers = viewer === null ? new Set<string>() : await blockersAmong(tx, others, viewer);
      const shown = live.filter((friend) => !blockers.has(friend.id));
      // Presence is for a user's friends: the viewer's own list, or friends the viewer shares.
      const shared = viewer === null || viewer === target.id
        ? new Set<string>()
        : await friendsAmong(tx, viewer, shown.map((friend) => friend.id).filter((id) => id !== viewer));
      const visible = shown.map((friend) => viewer !== null && (viewer === target.id || viewer === friend.id || shared.has(friend.id)));
      const presences = await presencesOf(tx, deps, shown, visible, viewer);
      const friends = shown.map((friend, i) => ({ user: userSummary(friend), ...presences[i]! }));
      friends.sort((a, b) => PRESENCE_ORDER[a.presence] - PRESENCE_ORDER[b.presence]);
      return { friends };
    });
  },

  async listFriendRequests(_req, ctx) {
    const me = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      const live = async (ids: string[]) => (await liveUsers(tx, ids)).map(userSummary);
      const newestFirst = { order: "desc", limit: FRIEND_LIST_MAX } as const;
      const incoming = await tx.query(tables.friendRequests, "byTo", { equals: [me], ...newestFirst });
      const outgoing = await tx.query(tables.friendRequests, "byFrom", { equals: [me], ...newestFirst });
      return { incoming: await live(incoming.map((r) => r.fromId)), outgoing: await live(outgoing.map((r) => r.toId)) };
    });
  },

  async follow(req, ctx) {
    const me = ctx.user().userId;
    const { deps } = ctx;
    return deps.storage.transact(async (tx) => {
      const target = await socialTarget(tx, req.userId, me, "follow");
      if (await hasBlocked(tx, me, target.id)) throw fail.precondition("userId: you blocked this user: unblock first");
      if (!(await isFollowing(tx, me, target.id))) {
        await tx.put(tables.follows, { id: `${me}:${target.id}`, followerId: me, followeeId: target.id, createdAt: deps.clock.now() });
      }
      return { following: true };
    });
  },

  async unfollow(req, ctx) {
    const me = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      if (req.userId === me) throw fail.invalid("userId: you cannot follow yourself");
      const user = await tx.get(tables.users, req.userId);
      if (!user || user.deletedAt !== null) throw fail.notFound("userId: no such user");
      await tx.delete(tables.follows, `${me}:${user.id}`);
      return { following: false };
    });
  },
};

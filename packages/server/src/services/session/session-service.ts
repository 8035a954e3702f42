import { compareCandidates, fail, mintClaims, tables, TokenType, type SessionService } from "@playfield/core";
import type { HandlerContext } from "../../rpc/handler-context.js";
import { realtimeUrl } from "../../routes/realtime-url.js";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso, userSummary } from "../identity/accounts.js";
import { seenExperience } from "../catalog/access.js";
import { joinInTx, type Allocation, type JoinOutcome } from "./join.js";
import { deleteMember, deliver, expireSilent, membersOf, removeMember, rosterEvent, usersOf, type Outgoing } from "./roster.js";
import { areFriends, friendIds } from "../social/graph.js";

/** The most sessions ListSessions answers. */
const MAX_LISTED = 100;

/** The realtime address peer sessions signal through: configured, never taken from the request. */
function signallingUrl(ctx: HandlerContext): string {
  return ctx.deps.sessions.signallingUrl ?? realtimeUrl(ctx.deps.config);
}

/** SessionService: joining games (matchmaking), heartbeats, rosters, invites. */
export const sessionService: ServiceImpl<typeof SessionService> = {
  async join(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    const input = { userId: caller.userId, ...req, signallingUrl: signallingUrl(ctx) };
    let allocation: Allocation | null = null;
    let outcome: JoinOutcome = await deps.storage.transact((tx) => joinInTx(tx, deps, input, null));
    if (outcome.kind === "allocate") {
      await deliver(deps, { events: outcome.outgoing, closed: outcome.closed, moved: outcome.moved });
      const sessionId = deps.ids.id("gs");
      const { allocator } = deps.sessions;
      allocation = {
        sessionId,
        connectUrl: await allocator.allocate({ sessionId, experienceId: outcome.experience.id, placeVersionId: outcome.version.id, hostingTier: outcome.tier }),
      };
      const given = allocation;
      outcome = await deps.storage.transact((tx) => joinInTx(tx, deps, input, given)).catch((error: unknown) => {
        allocator.release?.(given.sessionId);
        throw error;
      });
    }
    if (outcome.kind !== "joined") throw fail.precondition("sessionId: no game server could be found; try again");
    if (allocation && !outcome.usedAllocation) deps.sessions.allocator.release?.(allocation.sessionId);
    await deliver(deps, { events: outcome.outgoing, closed: outcome.closed, moved: [...outcome.moved, caller.userId] });

    const { session, version } = outcome;
    const gameToken = await deps.signer.sign(mintClaims(
      { sub: caller.userId, sid: caller.deviceId, typ: TokenType.Game, gsid: session.id, xid: session.experienceId },
      deps.clock.now(),
      deps.config.lifetimes.game,
    ));
    return {
      sessionId: session.id,
      gameToken,
      hostingTier: session.hostingTier,
      hostUserId: session.hostUserId ?? "",
      connectUrl: session.connectUrl ?? "",
      contentUrl: outcome.contentUrl,
      placeVersionId: version.id,
      members: outcome.members,
    };
  },

  async leave(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    const outgoing = await deps.storage.transact(async (tx) => {
      const now = deps.clock.now();
      const result = await expireSilent(tx, deps, now);
      const member = await tx.get(tables.sessionMembers, `${req.sessionId}:${caller.userId}`);
      const session = member && (await tx.get(tables.gameSessions, req.sessionId));
      if (member && session) {
        const updated = await removeMember(tx, session, member, now, now);
        result.moved.push(caller.userId);
        if (updated.closedAt !== null) result.closed.push(updated.id);
        else result.events.push(await rosterEvent(tx, updated));
      } else if (member) {
        await deleteMember(tx, member);
        result.moved.push(caller.userId);
      }
      return result;
    });
    await deliver(deps, outgoing);
    return {};
  },

  async heartbeat(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    const { outgoing, memberCount } = await deps.storage.transact(async (tx) => {
      const now = deps.clock.now();
      const outgoing = await expireSilent(tx, deps, now);
      const member = await tx.get(tables.sessionMembers, `${req.sessionId}:${caller.userId}`);
      const session = member && (await tx.get(tables.gameSessions, req.sessionId));
      if (!member || !session) return { outgoing, memberCount: -1 };
      await tx.put(tables.sessionMembers, { ...member, lastHeartbeatAt: now });
      return { outgoing, memberCount: session.memberCount };
    });
    await deliver(deps, outgoing);
    if (memberCount < 0) throw fail.notFound("sessionId: you are not in this session (left, or dropped after a silence)");
    return { memberCount };
  },

  async getSession(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    const { outgoing, detail } = await deps.storage.transact(async (tx) => {
      const outgoing = await expireSilent(tx, deps, deps.clock.now());
      const session = await tx.get(tables.gameSessions, req.sessionId);
      const mine = await tx.get(tables.sessionMembers, `${req.sessionId}:${caller.userId}`);
      if (!session || !mine) return { outgoing, detail: null };
      const members = await membersOf(tx, session.id);
      const users = await usersOf(tx, members);
      const friends = new Set(await friendIds(tx, caller.userId));
      return {
        outgoing,
        detail: {
          id: session.id,
          experienceId: session.experienceId,
          hostingTier: session.hostingTier,
          maxPlayers: session.maxPlayers,
          members: members.map((m, i) => ({
            user: userSummary(users[i]!),
            joinedAt: iso(m.joinedAt),
            isHost: session.hostUserId === m.userId,
            isFriend: friends.has(m.userId),
            guest: users[i]!.guest,
          })),
        },
      };
    });
    await deliver(deps, outgoing);
    // Members only: anyone else reads `not_found`, so session ids leak nothing.
    if (!detail) throw fail.notFound("sessionId: no such session of yours");
    return detail;
  },

  async listSessions(req, ctx) {
    const { deps } = ctx;
    const userId = ctx.viewerId;
    const { outgoing, sessions } = await deps.storage.transact(async (tx) => {
      const outgoing = await expireSilent(tx, deps, deps.clock.now());
      const experience = await seenExperience(tx, req.experienceId, userId);
      if (!experience) return { outgoing, sessions: null };
      const friends = new Set(userId ? await friendIds(tx, userId) : []);
      const open = (await tx.query(tables.gameSessions, "openByExperience", { equals: [experience.id] }))
        .filter((s) => s.hostingTier !== "solo" && s.memberCount > 0);
      const listed = await Promise.all(open.map(async (s) => {
        const friendMembers = friends.size === 0 ? [] : (await membersOf(tx, s.id)).filter((m) => friends.has(m.userId));
        const friendUsers = await usersOf(tx, friendMembers);
        return { row: s, friends: friendUsers.map(userSummary) };
      }));
      // Personalised: sessions with friends first, then the fullest (matchmaking's order).
      listed.sort((a, b) => compareCandidates(
        { ...a.row, friendCount: a.friends.length },
        { ...b.row, friendCount: b.friends.length },
      ));
      return {
        outgoing,
        sessions: listed.slice(0, MAX_LISTED).map(({ row, friends }) => ({ id: row.id, memberCount: row.memberCount, maxPlayers: row.maxPlayers, friends })),
      };
    });
    await deliver(deps, outgoing);
    if (!sessions) throw fail.notFound("experienceId: no such experience");
    return { sessions };
  },

  async inviteToSession(req, ctx) {
    const { deps } = ctx;
    const caller = ctx.user();
    const { outgoing, invite } = await deps.storage.transact(async (tx) => {
      const outgoing = await expireSilent(tx, deps, deps.clock.now());
      const session = await tx.get(tables.gameSessions, req.sessionId);
      const mine = await tx.get(tables.sessionMembers, `${req.sessionId}:${caller.userId}`);
      if (!session || !mine) throw fail.notFound("sessionId: no such session of yours");
      const invited = await tx.get(tables.users, req.userId);
      if (!invited || invited.deletedAt !== null) throw fail.notFound("userId: no such user");
      if (!(await areFriends(tx, caller.userId, invited.id))) throw fail.precondition("userId: only friends can be invited");
      if (session.hostingTier === "solo") throw fail.precondition("sessionId: a solo session takes no one else");
      if (await tx.get(tables.sessionMembers, `${session.id}:${invited.id}`)) throw fail.precondition("userId: already in this session");
      // A friend who may not see the experience is told nothing of it (not even its id and title) and could not join.
      const [me, experience] = await Promise.all([tx.get(tables.users, caller.userId), seenExperience(tx, session.experienceId, invited.id)]);
      if (!experience) throw fail.precondition("userId: this friend cannot see this experience (only its creator and testers can)");
      const invite: Outgoing = {
        to: [invited.id],
        event: { type: "game_invite", from: userSummary(me!), experienceId: session.experienceId, sessionId: session.id, title: experience.title },
      };
      return { outgoing, invite };
    });
    await deliver(deps, outgoing);
    deps.realtime.publishMany(invite.to, invite.event);
    return {};
  },
};

import { byJoinOrder, hostAfterChange, tables, type GameSessionRow, type SessionMemberRow, type Tx, type UserRow } from "@playfield/core";
import type { RealtimeEvent } from "../../ports/realtime-hub.js";
import type { ServerDeps } from "../../server-deps.js";
import { iso, userSummary } from "../identity/accounts.js";
import { recordPlayEnded } from "../creator/stats.js";
import { announcePresence } from "../presence/feed.js";

/*
 * Rosters of game sessions inside a transaction: members in join order,
 * removing a member (host hand-off, play recorded, empty session closed),
 * dropping silent members, and the `session_members` event of a roster.
 */

/** An event for some users, published after the transaction commits. */
export interface Outgoing {
  to: string[];
  event: RealtimeEvent;
}

/** A session's members, earliest first. */
export async function membersOf(tx: Tx, sessionId: string): Promise<SessionMemberRow[]> {
  const rows = await tx.query(tables.sessionMembers, "bySession", { equals: [sessionId] });
  return rows.sort(byJoinOrder);
}

/** Adds (or replaces) a membership: the one way to write a new member, as presence reads `playing`.
 * @private Internal code, does not follow semantic versioning (the test kit seeds game tokens with it).
 */
export async function putMember(tx: Tx, member: SessionMemberRow): Promise<void> {
  await tx.put(tables.sessionMembers, member);
  await syncPlaying(tx, member.userId);
}

/** Removes a membership: the one way to drop a member. */
export async function deleteMember(tx: Tx, member: SessionMemberRow): Promise<void> {
  await tx.delete(tables.sessionMembers, member.id);
  await syncPlaying(tx, member.userId);
}

/** Points the user's `playing` row at their first membership, or removes it when they have none. */
async function syncPlaying(tx: Tx, userId: string): Promise<void> {
  const [first] = await tx.query(tables.sessionMembers, "byUser", { equals: [userId], limit: 1 });
  if (first) await tx.put(tables.playing, { userId, sessionId: first.sessionId, experienceId: first.experienceId });
  else await tx.delete(tables.playing, userId);
}

/** The user rows of members, in the members' order (a deleted user reads as a placeholder row). */
export async function usersOf(tx: Tx, members: readonly SessionMemberRow[]): Promise<UserRow[]> {
  const users = await tx.getMany(tables.users, members.map((m) => m.userId));
  return members.map((m, i) => users[i] ?? placeholderUser(m.userId));
}

function placeholderUser(id: string): UserRow {
  return {
    id, username: "deleted", usernameKey: "deleted", displayName: "", passwordHash: null, birthdate: null, guest: false,
    createdAt: 0, deletedAt: 0,
    settings: { whoCanMessage: "nobody", whoCanFriend: "nobody", whoCanJoin: "nobody", showOnlineStatus: false, emailNotifications: false, theme: "system" },
  };
}

/** The `session_members` event of a session's roster: the same for every member (`isFriend` is the reader's to work out). */
export async function rosterEvent(tx: Tx, session: GameSessionRow): Promise<Outgoing> {
  const members = await membersOf(tx, session.id);
  const users = await usersOf(tx, members);
  return {
    to: members.map((m) => m.userId),
    event: {
      type: "session_members",
      sessionId: session.id,
      members: members.map((m, i) => ({
        user: userSummary(users[i]!),
        joinedAt: iso(m.joinedAt),
        isHost: session.hostUserId === m.userId,
        guest: users[i]!.guest,
      })),
    },
  };
}

/**
 * Removes a member: the play ends at `endedAt`, the host passes to the
 * earliest remaining member, and the session closes when it empties.
 * Answers the session as updated.
 */
export async function removeMember(tx: Tx, session: GameSessionRow, member: SessionMemberRow, endedAt: number, now: number): Promise<GameSessionRow> {
  await deleteMember(tx, member);
  if (member.playId) {
    const play = await tx.get(tables.plays, member.playId);
    if (play && play.leftAt === null) {
      const leftAt = Math.max(play.joinedAt, endedAt);
      await tx.put(tables.plays, { ...play, leftAt });
      await recordPlayEnded(tx, play, leftAt);
    }
  }
  const remaining = await membersOf(tx, session.id);
  const updated: GameSessionRow = {
    ...session,
    memberCount: remaining.length,
    hostUserId: hostAfterChange(session.hostingTier, session.hostUserId, remaining),
    closedAt: remaining.length === 0 ? now : null,
  };
  await tx.put(tables.gameSessions, updated);
  return updated;
}

/** The most silent members one sweep drops; the next call continues. */
const SWEEP_BATCH = 500;

/**
 * Drops members silent for longer than the limit (their play ends at their
 * last heartbeat) and answers the roster events of the sessions that
 * changed. Rows with no session (seeded game tokens) are left alone.
 */
export async function expireSilent(tx: Tx, deps: ServerDeps, now: number): Promise<{ events: Outgoing[]; closed: string[]; moved: string[] }> {
  const cutoff = now - deps.sessions.silenceMs;
  const silent = await tx.query(tables.sessionMembers, "byHeartbeat", { range: { lt: cutoff }, limit: SWEEP_BATCH });
  const changed = new Map<string, GameSessionRow>();
  const moved: string[] = [];
  const sessionIds = [...new Set(silent.map((member) => member.sessionId))];
  const sessions = new Map((await tx.getMany(tables.gameSessions, sessionIds)).map((row, i) => [sessionIds[i]!, row]));
  for (const member of silent) {
    const session = changed.get(member.sessionId) ?? sessions.get(member.sessionId);
    if (!session) continue;
    changed.set(session.id, await removeMember(tx, session, member, member.lastHeartbeatAt, now));
    moved.push(member.userId);
  }
  const events: Outgoing[] = [];
  const closed: string[] = [];
  for (const session of changed.values()) {
    if (session.closedAt !== null) closed.push(session.id);
    else events.push(await rosterEvent(tx, session));
  }
  return { events, closed, moved };
}

/** Publishes roster events, releases closed sessions' servers and tells friends of `moved` users (who joined or left) their presence, after the commit. */
export async function deliver(deps: ServerDeps, outgoing: { events: Outgoing[]; closed: string[]; moved: string[] }): Promise<void> {
  for (const { to, event } of outgoing.events) deps.realtime.publishMany(to, event);
  const { allocator } = deps.sessions;
  if (allocator.release) for (const id of outgoing.closed) allocator.release(id);
  if (outgoing.moved.length > 0) await announcePresence(deps, outgoing.moved);
}

/**
 * Drops silent members of every session now and publishes the roster
 * changes: what a server runs on a timer (the methods also do it as they go).
 * Answers how many sessions changed.
 */
export async function sweepSessions(deps: ServerDeps): Promise<number> {
  const outgoing = await deps.storage.transact((tx) => expireSilent(tx, deps, deps.clock.now()));
  await deliver(deps, outgoing);
  return outgoing.events.length + outgoing.closed.length;
}

import {
  chooseSession, contentUrlFor, fail, hostAfterChange, missingEngineVersion, tables,
  type ExperienceRow, type GameSessionRow, type PlaceVersionRow, type PlayRow, type SessionCandidate, type SessionMemberRow, type Tx,
} from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import { userSummary } from "../identity/accounts.js";
import { recordPlayStarted } from "../creator/stats.js";
import { seenExperience } from "../catalog/access.js";
import { refusalToJoin } from "./access.js";
import { expireSilent, membersOf, putMember, removeMember, rosterEvent, usersOf, type Outgoing } from "./roster.js";
import { friendIds } from "../social/graph.js";

/*
 * Join inside one transaction: find the experience and version, check the
 * engine, pick or start the session (matchmaking), add the member, record
 * the play and the visit. A new edge or dedicated session needs a server
 * from the allocator, which is slow and outside the transaction: the
 * transaction then answers `allocate` and runs again with the address.
 */

export interface JoinInput {
  userId: string;
  experienceId: string;
  sessionId: string;
  platform: string;
  engineVersion: string;
  /** The signalling address for a new peer session. */
  signallingUrl: string;
}

/** An allocated server for a new session, made outside the transaction. */
export interface Allocation {
  sessionId: string;
  connectUrl: string;
}

export type JoinOutcome =
  | { kind: "allocate"; experience: ExperienceRow; version: PlaceVersionRow; tier: "edge" | "dedicated"; outgoing: Outgoing[]; closed: string[]; moved: string[] }
  | {
      kind: "joined";
      session: GameSessionRow;
      version: PlaceVersionRow;
      contentUrl: string;
      members: ReturnType<typeof userSummary>[];
      usedAllocation: boolean;
      outgoing: Outgoing[];
      closed: string[];
      /** Users dropped for silence meanwhile (the joining user is not listed). */
      moved: string[];
    };

/** How many of the fullest sessions matchmaking looks at besides friends' sessions. */
const FULLEST_LOOKED_AT = 50;
/** How many friends' memberships matchmaking reads. */
const FRIENDS_LOOKED_AT = 500;

export async function joinInTx(tx: Tx, deps: ServerDeps, input: JoinInput, allocation: Allocation | null): Promise<JoinOutcome> {
  const now = deps.clock.now();
  const expired = await expireSilent(tx, deps, now);
  const outgoing = expired.events;
  const closed = expired.closed;
  const moved = expired.moved;

  const experience = await seenExperience(tx, input.experienceId, input.userId);
  if (!experience) throw fail.notFound("experienceId: no such experience");

  let target: GameSessionRow | undefined;
  let version: PlaceVersionRow | undefined;
  if (input.sessionId !== "") {
    target = await tx.get(tables.gameSessions, input.sessionId);
    if (!target || target.closedAt !== null || target.experienceId !== experience.id) throw fail.notFound("sessionId: no such session");
    // A running session keeps the version it started with.
    version = await tx.get(tables.placeVersions, target.placeVersionId);
  } else {
    if (experience.liveVersionId === null) throw fail.precondition("experienceId: not published yet: no live version");
    version = await tx.get(tables.placeVersions, experience.liveVersionId);
  }
  if (!version) throw fail.precondition("experienceId: its version is missing");
  const minimum = missingEngineVersion(version.engineMin, input.platform, input.engineVersion);
  if (minimum !== null) throw fail.precondition(`engineVersion: ${input.platform} needs engine ${minimum} or later`);

  const mine = await tx.query(tables.sessionMembers, "byUser", { equals: [input.userId] });
  const tier = target?.hostingTier ?? experience.hostingTier;
  // Join again where the caller already is (a retried Join): no roster change, a fresh heartbeat.
  const already = mine.find((m) => (target ? m.sessionId === target.id : tier !== "solo" && m.experienceId === experience.id));
  if (already) {
    const session = await tx.get(tables.gameSessions, already.sessionId);
    if (session && session.closedAt === null && (target || session.placeVersionId === version.id)) {
      await tx.put(tables.sessionMembers, { ...already, lastHeartbeatAt: now });
      return joined(tx, session, version, input, false, outgoing, closed, moved);
    }
  }

  // One session at a time: joining another leaves the ones the caller is in.
  const mineSessions = await tx.getMany(tables.gameSessions, mine.map((member) => member.sessionId));
  for (const [i, member] of mine.entries()) {
    const session = mineSessions[i];
    if (!session) continue;
    const updated = await removeMember(tx, session, member, now, now);
    if (updated.closedAt !== null) closed.push(updated.id);
    else outgoing.push(await rosterEvent(tx, updated));
  }

  let session: GameSessionRow | null = null;
  if (target) {
    if (target.hostingTier === "solo") throw fail.precondition("sessionId: a solo session takes no one else");
    if (target.memberCount >= target.maxPlayers) throw fail.precondition("sessionId: the session is full");
    const refusal = await refusalToJoin(tx, input.userId, await membersOf(tx, target.id), "follow");
    if (refusal) throw fail.denied(`sessionId: ${refusal}`);
    session = await tx.get(tables.gameSessions, target.id) ?? null;
  } else if (tier !== "solo") {
    session = await matchmake(tx, input.userId, version);
  }

  let usedAllocation = false;
  if (!session) {
    if ((tier === "edge" || tier === "dedicated") && !allocation) return { kind: "allocate", experience, version, tier, outgoing, closed, moved };
    usedAllocation = tier === "edge" || tier === "dedicated";
    session = {
      id: usedAllocation ? allocation!.sessionId : deps.ids.id("gs"),
      experienceId: experience.id,
      placeVersionId: version.id,
      hostingTier: tier,
      maxPlayers: tier === "solo" ? 1 : Math.max(1, experience.maxPlayers),
      hostUserId: null,
      memberCount: 0,
      connectUrl: usedAllocation ? allocation!.connectUrl : tier === "peer" ? input.signallingUrl : "",
      createdAt: now,
      closedAt: null,
    };
  }

  const playId = deps.ids.id("ply");
  const member: SessionMemberRow = {
    id: `${session.id}:${input.userId}`, sessionId: session.id, userId: input.userId, experienceId: experience.id,
    joinedAt: now, lastHeartbeatAt: now, playId,
  };
  await putMember(tx, member);
  const play: PlayRow = { id: playId, experienceId: experience.id, userId: input.userId, sessionId: session.id, joinedAt: now, leftAt: null };
  await tx.put(tables.plays, play);
  await recordPlayStarted(tx, play, experience.creatorId);
  const members = await membersOf(tx, session.id);
  session = { ...session, memberCount: members.length, hostUserId: hostAfterChange(session.hostingTier, session.hostUserId, members) };
  await tx.put(tables.gameSessions, session);
  const fresh = (await tx.get(tables.experiences, experience.id)) ?? experience;
  await tx.put(tables.experiences, { ...fresh, visits: fresh.visits + 1 });
  outgoing.push(await rosterEvent(tx, session));
  return joined(tx, session, version, input, usedAllocation, outgoing, closed, moved);
}

async function joined(
  tx: Tx, session: GameSessionRow, version: PlaceVersionRow, input: JoinInput, usedAllocation: boolean, outgoing: Outgoing[], closed: string[], moved: string[],
): Promise<JoinOutcome> {
  const users = await usersOf(tx, await membersOf(tx, session.id));
  return {
    kind: "joined", session, version, usedAllocation, outgoing, closed, moved,
    contentUrl: contentUrlFor(version.contentUrls, input.platform),
    members: users.map(userSummary),
  };
}

/** Matchmaking (DESIGN.md): same version, room left, friends' sessions first, then the fullest; never with a player blocked either way. */
async function matchmake(tx: Tx, userId: string, version: PlaceVersionRow): Promise<GameSessionRow | null> {
  const candidates = new Map<string, SessionCandidate & { row: GameSessionRow }>();
  const consider = (row: GameSessionRow, friend: boolean) => {
    if (row.closedAt !== null || row.placeVersionId !== version.id || row.hostingTier === "solo") return;
    const known = candidates.get(row.id);
    if (known) known.friendCount += friend ? 1 : 0;
    else candidates.set(row.id, { id: row.id, memberCount: row.memberCount, maxPlayers: row.maxPlayers, createdAt: row.createdAt, friendCount: friend ? 1 : 0, row });
  };
  // Where each friend plays (their `playing` row), then those sessions: two reads, however many friends.
  const friendsPlaying = (await tx.getMany(tables.playing, (await friendIds(tx, userId)).slice(0, FRIENDS_LOOKED_AT)))
    .filter((row) => row !== undefined && row.experienceId === version.experienceId);
  const friendSessions = await tx.getMany(tables.gameSessions, friendsPlaying.map((row) => row!.sessionId));
  for (const row of friendSessions) if (row) consider(row, true);
  for (const row of await tx.query(tables.gameSessions, "openByVersion", { equals: [version.id], order: "desc", limit: FULLEST_LOOKED_AT })) {
    consider(row, false);
  }
  const open = [...candidates.values()];
  // Best first; the first whose members let the caller in wins.
  while (open.length > 0) {
    const best = chooseSession(open);
    if (!best) return null;
    if ((await refusalToJoin(tx, userId, await membersOf(tx, best.id), "matchmake")) === null) return best.row;
    open.splice(open.indexOf(best), 1);
  }
  return null;
}

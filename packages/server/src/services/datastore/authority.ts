import { fail, sessionAuthority, tables, writeRefusal, type DatastoreTarget, type GameSessionRow, type Tx } from "@playfield/core";
import type { GameCaller } from "../../rpc/caller.js";
import type { ServerDeps } from "../../server-deps.js";

/*
 * Write permission in the datastore (spec rule 11), read from the caller's
 * session: its members in join order and, when it has a record, its tier
 * and host. A session with no record (a token seeded by tests) has no host,
 * so its earliest member is the authority.
 */

/** The user ids of a session's members, earliest joined first (ties by user id, as the index orders them). */
async function membersInJoinOrder(tx: Tx, sessionId: string): Promise<string[]> {
  const rows = await tx.query(tables.sessionMembers, "bySession", { equals: [sessionId] });
  return rows.map((row) => row.userId);
}

/** Refuses a write the caller may not make with `permission_denied`. Inside the write's transaction. */
export function requireWrite(tx: Tx, caller: GameCaller, target: DatastoreTarget): Promise<void> | undefined {
  // A player's own data needs no look at the session (most writes: no promise to make).
  if ((target.kind === "user" && target.userId === caller.userId) || (target.kind === "ordered" && target.key === caller.userId)) return undefined;
  return requireWriteBySession(tx, caller, target);
}

/** `requireWrite` for data that is not the caller's own: by the session's members and authority. */
async function requireWriteBySession(tx: Tx, caller: GameCaller, target: DatastoreTarget): Promise<void> {
  const [session, members] = await Promise.all([tx.get(tables.gameSessions, caller.sessionId), membersInJoinOrder(tx, caller.sessionId)]);
  const authority = sessionAuthority(session, members);
  const refusal = writeRefusal({ userId: caller.userId, isAuthority: authority === caller.userId, members }, target);
  if (refusal) throw fail.denied(refusal);
}

/**
 * Refuses a player whose session dropped them for silence with
 * `permission_denied`, even before any session call swept them out: the
 * same rule SessionService applies (no heartbeat for the silence limit, 60 s
 * by default; sessions with no record are left alone). Inside the call's
 * transaction; `session` is the session's record if the caller already
 * asked for it (read only for a silent member otherwise).
 *
 * The membership is the process's copy when it holds one (`getCached`): the
 * token check read it moments ago, through the same copies, so reading it
 * again in the transaction would tell no more than that check accepts (a
 * Leave or sweep in another process seen once its notice arrives, at most
 * the row cache's bound late: docs/storage.md, "Cached rows"). A member
 * with no copy, or copied as gone, is read in the transaction.
 */
export async function requireLiveMember(tx: Tx, deps: ServerDeps, caller: GameCaller, session?: Promise<GameSessionRow | undefined>): Promise<void> {
  const member = await tx.getCached(tables.sessionMembers, `${caller.sessionId}:${caller.userId}`);
  if (!member) throw fail.denied("the player is no longer in this game session");
  if (member.lastHeartbeatAt >= deps.clock.now() - deps.sessions.silenceMs) return;
  if (await (session ?? tx.get(tables.gameSessions, caller.sessionId))) {
    throw fail.denied("the player is no longer in this game session: no heartbeat for too long");
  }
}

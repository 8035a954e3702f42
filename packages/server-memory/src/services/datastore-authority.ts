import { fail, sessionAuthority, tables, writeRefusal, type DatastoreTarget, type Tx } from "@playfield/core";
import type { GameCaller } from "../caller.js";

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
export async function requireWrite(tx: Tx, caller: GameCaller, target: DatastoreTarget): Promise<void> {
  // A player's own data needs no look at the session.
  if ((target.kind === "user" && target.userId === caller.userId) || (target.kind === "ordered" && target.key === caller.userId)) return;
  const [session, members] = await Promise.all([tx.get(tables.gameSessions, caller.sessionId), membersInJoinOrder(tx, caller.sessionId)]);
  const authority = sessionAuthority(session, members);
  const refusal = writeRefusal({ userId: caller.userId, isAuthority: authority === caller.userId, members }, target);
  if (refusal) throw fail.denied(refusal);
}

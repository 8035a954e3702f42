import { joinRefusal, type JoinMode, type MemberStance, type SessionMemberRow, type Tx } from "@playfield/core";
import { blockedBy, blockersAmong, friendsAmong } from "../social/graph.js";
import { usersOf } from "./roster.js";

/*
 * Who may enter a session: whether its experience exists for the caller is
 * the catalog's rule (`seenExperience`, catalog/access.ts); inside a
 * session, members' `whoCanJoin` settings and blocks decide.
 */

/** Why the user may not join these members, or null when they may. */
export async function refusalToJoin(tx: Tx, userId: string, members: readonly SessionMemberRow[], mode: JoinMode): Promise<string | null> {
  const ids = members.map((member) => member.userId);
  const [users, friends, blockers, blockedByUser] = await Promise.all([
    usersOf(tx, members),
    mode === "follow" ? friendsAmong(tx, userId, ids) : new Set<string>(),
    blockersAmong(tx, ids, userId),
    blockedBy(tx, userId, ids),
  ]);
  const stances: MemberStance[] = members.map((member, i) => ({
    userId: member.userId,
    whoCanJoin: users[i]!.settings.whoCanJoin,
    isFriend: friends.has(member.userId),
    blocked: blockers.has(member.userId) || blockedByUser.has(member.userId),
  }));
  return joinRefusal(stances, mode);
}

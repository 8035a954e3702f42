import {
  joinRefusal, tables, type ExperienceRow, type JoinMode, type MemberStance, type SessionMemberRow, type Tx,
} from "@playfield/core";
import { canSeeExperience } from "../catalog/access.js";
import { blockedBy, blockersAmong, friendsAmong } from "../social/graph.js";
import { usersOf } from "./roster.js";

/*
 * Who may see and enter an experience's sessions: public experiences are
 * open to all; draft and private ones to their creator and testers only
 * (others get `not_found`, so nothing leaks). Inside a session, members'
 * `whoCanJoin` settings and blocks decide.
 */

/** The experience if the caller (null: anonymous) may see and join it, by the catalog's rule. */
export async function visibleExperience(tx: Tx, experienceId: string, userId: string | null): Promise<ExperienceRow | undefined> {
  const experience = await tx.get(tables.experiences, experienceId);
  return experience && (await canSeeExperience(tx, experience, userId)) ? experience : undefined;
}

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

import {
  joinRefusal, tables, type ExperienceRow, type JoinMode, type MemberStance, type SessionMemberRow, type TableDef, type Tx,
} from "@playfield/core";
import { areFriends, blockedEitherWay } from "./social-graph.js";
import { usersOf } from "./session-roster.js";

/*
 * Who may see and enter an experience's sessions: public experiences are
 * open to all; draft and private ones to their creator and testers only
 * (others get `not_found`, so nothing leaks). Inside a session, members'
 * `whoCanJoin` settings and blocks decide.
 */

interface TesterRow { id: string }

/** CatalogService's testers table, when the catalog declares it. */
const testers = (tables as unknown as Record<string, TableDef<TesterRow> | undefined>)["experienceTesters"];

/** The experience if the caller (null: anonymous) may see and join it. */
export async function visibleExperience(tx: Tx, experienceId: string, userId: string | null): Promise<ExperienceRow | undefined> {
  const experience = await tx.get(tables.experiences, experienceId);
  if (!experience) return undefined;
  if (experience.visibility === "public" || experience.creatorId === userId) return experience;
  if (userId === null || !testers) return undefined;
  return (await tx.get(testers, `${experienceId}:${userId}`)) ? experience : undefined;
}

/** Why the user may not join these members, or null when they may. */
export async function refusalToJoin(tx: Tx, userId: string, members: readonly SessionMemberRow[], mode: JoinMode): Promise<string | null> {
  const users = await usersOf(tx, members);
  const stances: MemberStance[] = await Promise.all(members.map(async (member, i) => ({
    userId: member.userId,
    whoCanJoin: users[i]!.settings.whoCanJoin,
    isFriend: mode === "follow" && (await areFriends(tx, member.userId, userId)),
    blocked: await blockedEitherWay(tx, member.userId, userId),
  })));
  return joinRefusal(stances, mode);
}

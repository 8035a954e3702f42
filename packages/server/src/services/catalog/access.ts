import { fail, tables, type ExperienceRow, type Tx } from "@playfield/core";

/*
 * Who may see an experience: public ones are everyone's; draft and private
 * ones only their creator's and testers'. For anyone else such an experience
 * does not exist, on every surface (docs/catalog.md, "Who sees an
 * experience"): each method that takes an experience, or a thing of one (its
 * items, sessions, players' presence), asks here and answers exactly as for
 * an unknown id.
 */

/** The tester row id of a user on an experience. */
export const testerId = (experienceId: string, userId: string) => `${experienceId}:${userId}`;

export async function isTester(tx: Tx, experienceId: string, userId: string): Promise<boolean> {
  return (await tx.get(tables.experienceTesters, testerId(experienceId, userId))) !== undefined;
}

/** Whether `userId` (null: anonymous) may see and join the experience. */
export async function canSeeExperience(tx: Tx, experience: ExperienceRow, userId: string | null): Promise<boolean> {
  if (experience.visibility === "public") return true;
  if (userId === null) return false;
  return experience.creatorId === userId || (await isTester(tx, experience.id, userId));
}

/** `canSeeExperience` of each row, in their order: one read for all. */
export async function visibleTo(tx: Tx, rows: readonly ExperienceRow[], userId: string | null): Promise<boolean[]> {
  const asked = userId === null ? [] : rows.filter((row) => row.visibility !== "public" && row.creatorId !== userId);
  const testers = await tx.getMany(tables.experienceTesters, asked.map((row) => testerId(row.id, userId!)));
  const tests = new Set(asked.filter((_, i) => testers[i] !== undefined).map((row) => row.id));
  return rows.map((row) => row.visibility === "public" || (userId !== null && (row.creatorId === userId || tests.has(row.id))));
}

/** Which of `userIds` may see the experience (all of them when it is public): one read for all. */
export async function seersAmong(tx: Tx, experience: ExperienceRow, userIds: readonly string[]): Promise<Set<string>> {
  if (experience.visibility === "public") return new Set(userIds);
  const asked = userIds.filter((id) => id !== experience.creatorId);
  const testers = await tx.getMany(tables.experienceTesters, asked.map((id) => testerId(experience.id, id)));
  const seers = new Set(asked.filter((_, i) => testers[i] !== undefined));
  if (userIds.includes(experience.creatorId)) seers.add(experience.creatorId);
  return seers;
}

/** The experience if the caller may see it; undefined whether it does not exist or is hidden from them. */
export async function seenExperience(tx: Tx, experienceId: string, userId: string | null): Promise<ExperienceRow | undefined> {
  const experience = await tx.get(tables.experiences, experienceId);
  return experience && (await canSeeExperience(tx, experience, userId)) ? experience : undefined;
}

/** The experience if the caller may see it; `not_found` otherwise, whether it exists or not. */
export async function visibleExperience(tx: Tx, experienceId: string, userId: string | null): Promise<ExperienceRow> {
  const experience = await seenExperience(tx, experienceId, userId);
  if (!experience) throw fail.notFound("experienceId: no such experience");
  return experience;
}

/** The experience if the caller created it: `not_found` when they cannot see it, `permission_denied` when they can but it is not theirs. */
export async function ownExperience(tx: Tx, experienceId: string, userId: string, action: string): Promise<ExperienceRow> {
  const experience = await visibleExperience(tx, experienceId, userId);
  if (experience.creatorId !== userId) throw fail.denied(`experienceId: only the creator may ${action}`);
  return experience;
}


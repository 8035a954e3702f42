import { fail, tables, type ExperienceRow, type Tx } from "@playfield/core";

/*
 * Who may see an experience: public ones are everyone's; draft and private
 * ones only their creator's and testers'. Others are answered `not_found`,
 * never `permission_denied`, so their existence does not leak. SessionService
 * uses the same check for Join.
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

/** The experience if the caller may see it; `not_found` otherwise, whether it exists or not. */
export async function visibleExperience(tx: Tx, experienceId: string, userId: string | null): Promise<ExperienceRow> {
  const experience = await tx.get(tables.experiences, experienceId);
  if (!experience || !(await canSeeExperience(tx, experience, userId))) throw fail.notFound("experienceId: no such experience");
  return experience;
}

/** The experience if the caller created it: `not_found` when they cannot see it, `permission_denied` when they can but it is not theirs. */
export async function ownExperience(tx: Tx, experienceId: string, userId: string, action: string): Promise<ExperienceRow> {
  const experience = await visibleExperience(tx, experienceId, userId);
  if (experience.creatorId !== userId) throw fail.denied(`experienceId: only the creator may ${action}`);
  return experience;
}


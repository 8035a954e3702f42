import { tables, type Tx } from "@playfield/core";

/*
 * Players right now, from the open game sessions (each row carries its
 * member count). A listing asks for a page of experiences at once: on a
 * database a query per experience is a round trip each, so while the open
 * sessions are few they are read in one query and tallied instead.
 */

/** Open sessions read in one query at most; past this many, each experience's are read on their own. */
export const OPEN_SESSIONS_SCAN_MAX = 1_000;

/** Players right now per experience that has any, from every open session (one read). */
export async function playersNow(tx: Tx): Promise<Map<string, number>> {
  const players = new Map<string, number>();
  for (const session of await tx.query(tables.gameSessions, "openByExperience")) {
    if (session.memberCount > 0) players.set(session.experienceId, (players.get(session.experienceId) ?? 0) + session.memberCount);
  }
  return players;
}

/** Players in one experience's open sessions right now. */
async function playersIn(tx: Tx, experienceId: string): Promise<number> {
  let players = 0;
  for (const session of await tx.query(tables.gameSessions, "openByExperience", { equals: [experienceId] })) players += session.memberCount;
  return players;
}

/**
 * Players in each experience's open sessions right now, in the order of
 * `experienceIds`: one read for one experience; for more, a capped count of
 * the open sessions and one read of them all while there are at most
 * OPEN_SESSIONS_SCAN_MAX, else one read per experience.
 */
export async function playersNowOf(tx: Tx, experienceIds: readonly string[]): Promise<number[]> {
  const unique = [...new Set(experienceIds)];
  if (unique.length === 0) return [];
  if (unique.length > 1 && (await tx.count(tables.gameSessions, "openByExperience", { cap: OPEN_SESSIONS_SCAN_MAX + 1 })) <= OPEN_SESSIONS_SCAN_MAX) {
    const players = await playersNow(tx);
    return experienceIds.map((id) => players.get(id) ?? 0);
  }
  const players = new Map(await Promise.all(unique.map(async (id) => [id, await playersIn(tx, id)] as const)));
  return experienceIds.map((id) => players.get(id)!);
}

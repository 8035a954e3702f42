/*
 * Matchmaking's choice among open sessions of the same live version (DESIGN.md):
 * only sessions with room, sessions with friends in them first, then the
 * fullest; ties go to the older session (it has waited longer), then by id.
 */

/** A session the caller could be placed in. */
export interface SessionCandidate {
  id: string;
  memberCount: number;
  maxPlayers: number;
  /** How many of the caller's friends are in it. */
  friendCount: number;
  createdAt: number;
}

/** Orders candidates best first: friends in it, then fullest, then oldest, then id. */
export function compareCandidates(a: SessionCandidate, b: SessionCandidate): number {
  return (Number(b.friendCount > 0) - Number(a.friendCount > 0))
    || (b.memberCount - a.memberCount)
    || (a.createdAt - b.createdAt)
    || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The session to place a player in, or null to start a new one. */
export function chooseSession<C extends SessionCandidate>(candidates: readonly C[]): C | null {
  let best: C | null = null;
  for (const c of candidates) {
    if (c.memberCount >= c.maxPlayers) continue;
    if (best === null || compareCandidates(c, best) < 0) best = c;
  }
  return best;
}

/*
 * Who hosts a peer session: the first member, and when the host leaves, the
 * earliest remaining member (DESIGN.md). Other tiers have no player host.
 */

/** A member as the host rule sees them. */
export interface RosterEntry {
  userId: string;
  joinedAt: number;
}

/** Orders members by join time, ties by user id, so every reader agrees on "earliest". */
export function byJoinOrder(a: RosterEntry, b: RosterEntry): number {
  return a.joinedAt - b.joinedAt || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0);
}

/**
 * The host after a roster change: the current host while still a member,
 * else the earliest member; null for tiers without a player host or an
 * empty roster.
 */
export function hostAfterChange(tier: string, currentHost: string | null, members: readonly RosterEntry[]): string | null {
  if (tier !== "peer" || members.length === 0) return null;
  if (currentHost !== null && members.some((m) => m.userId === currentHost)) return currentHost;
  return [...members].sort(byJoinOrder)[0]!.userId;
}

/*
 * Group ranks and roles (the spec: Owner = 255, Admin = 200-254,
 * Member = 1-199; 0 = not a member).
 */

export const OWNER_RANK = 255;
export const ADMIN_MIN_RANK = 200;
/** The rank JoinGroup gives. */
export const MEMBER_RANK = 1;

export const GroupRole = { Owner: "Owner", Admin: "Admin", Member: "Member" } as const;
export type GroupRole = (typeof GroupRole)[keyof typeof GroupRole];

/** The role of a member's rank (1 to 255); null for 0 (not a member) or out of range. */
export function roleOfRank(rank: number): GroupRole | null {
  if (!Number.isInteger(rank) || rank < 1 || rank > OWNER_RANK) return null;
  if (rank === OWNER_RANK) return GroupRole.Owner;
  if (rank >= ADMIN_MIN_RANK) return GroupRole.Admin;
  return GroupRole.Member;
}

/** Whether a member may leave: an owner may not while other members remain. */
export function mayLeaveGroup(rank: number, memberCount: number): boolean {
  return rank !== OWNER_RANK || memberCount <= 1;
}

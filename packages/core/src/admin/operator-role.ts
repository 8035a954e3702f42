/**
 * OperatorRole says what an operator may do through the admin API; each
 * admin method lists the roles that may call it (docs/admin-api.md has the
 * table, generated from the descriptors).
 *
 * - `admin`: everything, operators included.
 * - `moderator`: players and reports: bans, sign-outs, the moderation queue.
 * - `support`: players' accounts and wallets: sign-outs, credit adjustments.
 * - `viewer`: reads only.
 */
export const OperatorRole = {
  Admin: "admin",
  Moderator: "moderator",
  Support: "support",
  Viewer: "viewer",
} as const;
export type OperatorRole = (typeof OperatorRole)[keyof typeof OperatorRole];

/** Every role, most powerful first. */
export const OPERATOR_ROLES: readonly OperatorRole[] = Object.values(OperatorRole);

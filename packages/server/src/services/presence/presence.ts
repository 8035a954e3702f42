import { tables, type Tx, type UserRow } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";

/*
 * Where a user is, as their friends see it: `in_game` (with the experience)
 * while a member of a game session, else `online` with a live realtime
 * connection, else `offline`. A user who turned `showOnlineStatus` off is
 * always `offline` to others.
 */

export interface Presence {
  presence: "online" | "in_game" | "offline";
  experienceId: string;
}

/** What everyone but friends sees, and what a user with `showOnlineStatus` off shows. */
export const OFFLINE: Presence = { presence: "offline", experienceId: "" };

/** The presence of `user` as shown to a viewer; `visible` says whether the viewer may see it at all. */
export async function presenceOf(tx: Tx, deps: ServerDeps, user: UserRow, visible: boolean): Promise<Presence> {
  if (!visible || !user.settings.showOnlineStatus) return OFFLINE;
  const [member] = await tx.query(tables.sessionMembers, "byUser", { equals: [user.id], limit: 1 });
  if (member) return { presence: "in_game", experienceId: member.experienceId };
  return deps.realtime.isOnline(user.id) ? { presence: "online", experienceId: "" } : OFFLINE;
}

/** The presence of a user as their friends see it; an unknown or deleted user is `offline`. */
export async function presenceToFriends(tx: Tx, deps: ServerDeps, userId: string): Promise<Presence> {
  const user = await tx.get(tables.users, userId);
  return user && user.deletedAt === null ? presenceOf(tx, deps, user, true) : OFFLINE;
}

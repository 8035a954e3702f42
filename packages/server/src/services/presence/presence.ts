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
  return (await presencesOf(tx, deps, [user], [visible]))[0]!;
}

/** `presenceOf` for many users at once (`visible[i]` for `users[i]`), in their order: one read for all. */
export async function presencesOf(tx: Tx, deps: ServerDeps, users: readonly UserRow[], visible: readonly boolean[]): Promise<Presence[]> {
  const shown = users.filter((user, i) => visible[i] && user.settings.showOnlineStatus);
  const where = new Map(shown.map((user, i) => [user.id, i]));
  const rows = await tx.getMany(tables.playing, shown.map((user) => user.id));
  const online = await deps.presence.onlineAmong(shown.filter((_, i) => !rows[i]).map((user) => user.id));
  return users.map((user) => {
    const at = where.get(user.id);
    if (at === undefined) return OFFLINE;
    const row = rows[at];
    if (row) return { presence: "in_game", experienceId: row.experienceId };
    return online.has(user.id) ? { presence: "online", experienceId: "" } : OFFLINE;
  });
}

/** The presence of a user as their friends see it; an unknown or deleted user is `offline`. */
export async function presenceToFriends(tx: Tx, deps: ServerDeps, userId: string): Promise<Presence> {
  const user = await tx.get(tables.users, userId);
  return user && user.deletedAt === null ? presenceOf(tx, deps, user, true) : OFFLINE;
}

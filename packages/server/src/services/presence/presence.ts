import { tables, type Tx, type UserRow } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import { visibleTo } from "../catalog/access.js";

/*
 * Where a user is, as their friends see it: `in_game` (with the experience)
 * while a member of a game session, else `online` with a live realtime
 * connection, else `offline`. A user who turned `showOnlineStatus` off is
 * always `offline` to others. A friend who may not see the experience
 * (catalog/access.ts) sees `in_game` without it: for them it does not exist.
 */

export interface Presence {
  presence: "online" | "in_game" | "offline";
  /** The experience while `in_game`; "" otherwise, and for a viewer who may not see it. */
  experienceId: string;
}

/** What everyone but friends sees, and what a user with `showOnlineStatus` off shows. */
export const OFFLINE: Presence = { presence: "offline", experienceId: "" };

/** A presence as shown to a viewer who may (`seesExperience`) or may not see its experience. */
export function asSeenBy(presence: Presence, seesExperience: boolean): Presence {
  return presence.presence === "in_game" && !seesExperience ? { presence: "in_game", experienceId: "" } : presence;
}

/**
 * The presence of each user as shown to `viewerId` (`visible[i]`: whether the viewer may see `users[i]`'s presence
 * at all), in their order: one read for all, and one for the experiences they play.
 */
export async function presencesOf(
  tx: Tx, deps: ServerDeps, users: readonly UserRow[], visible: readonly boolean[], viewerId: string | null,
): Promise<Presence[]> {
  const presences = await rawPresences(tx, deps, users.map((user, i) => (visible[i] ? user : null)));
  const ids = [...new Set(presences.filter((p) => p.presence === "in_game").map((p) => p.experienceId))];
  if (ids.length === 0) return presences;
  const experiences = (await tx.getMany(tables.experiences, ids)).filter((row) => row !== undefined);
  const seen = await visibleTo(tx, experiences, viewerId);
  const shown = new Set(experiences.filter((_, i) => seen[i]).map((row) => row.id));
  return presences.map((presence) => asSeenBy(presence, shown.has(presence.experienceId)));
}

/** Each user's presence as a friend who may see every experience sees it (null: `offline`), in their order. */
async function rawPresences(tx: Tx, deps: ServerDeps, users: readonly (UserRow | null)[]): Promise<Presence[]> {
  const shown = users.filter((user): user is UserRow => user !== null && user.settings.showOnlineStatus);
  const where = new Map(shown.map((user, i) => [user.id, i]));
  const rows = await tx.getMany(tables.playing, shown.map((user) => user.id));
  const online = await deps.presence.onlineAmong(shown.filter((_, i) => !rows[i]).map((user) => user.id));
  return users.map((user) => {
    const at = user === null ? undefined : where.get(user.id);
    if (at === undefined) return OFFLINE;
    const row = rows[at];
    if (row) return { presence: "in_game", experienceId: row.experienceId };
    return online.has(user!.id) ? { presence: "online", experienceId: "" } : OFFLINE;
  });
}

/**
 * The presence of a user as a friend who may see the experience sees it (`asSeenBy` makes what each friend sees);
 * an unknown or deleted user is `offline`.
 */
export async function presenceToFriends(tx: Tx, deps: ServerDeps, userId: string): Promise<Presence> {
  const user = await tx.get(tables.users, userId);
  return (await rawPresences(tx, deps, [user && user.deletedAt === null ? user : null]))[0]!;
}

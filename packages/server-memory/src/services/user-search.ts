import { PRIMARY_INDEX, tables, type Tx, type UserRow } from "@playfield/core";
import { hasBlocked } from "./social-graph.js";
import { indexNames, searchNames, type SearchSubject } from "./name-search.js";

/*
 * SearchUsers over the name index. Users' search terms are written by the
 * writes that change names (UpdateProfile here); users created or renamed
 * elsewhere are caught up by `syncUserNames` (see docs/social.md).
 */

export function userSubject(user: UserRow): SearchSubject {
  return { kind: "u", id: user.id, nameKey: user.usernameKey, otherNames: user.displayName ? [user.displayName] : [] };
}

/**
 * Indexes the users whose terms are missing or stale, when the number of
 * indexed users differs from the number of users (a sign-up or a seeded
 * user since the last search). O(log n) when nothing is missing.
 */
export async function syncUserNames(tx: Tx): Promise<void> {
  const [users, indexed] = await Promise.all([
    tx.count(tables.users, "byUsername"),
    tx.count(tables.searchSources, "byKind", { equals: ["u"] }),
  ]);
  if (users === indexed) return;
  for (const user of await tx.query(tables.users, PRIMARY_INDEX)) await indexNames(tx, userSubject(user));
}

/** Users matching a normalized query, best first: live accounts only, and never one who blocked the viewer. */
export async function searchUsers(tx: Tx, query: string, limit: number, viewerId: string | null): Promise<UserRow[]> {
  await syncUserNames(tx);
  return searchNames(tx, {
    kind: "u",
    table: tables.users,
    nameIndex: "byUsername",
    nameKeyOf: (row) => row.usernameKey,
    subjectOf: userSubject,
    async load(id) {
      const user = await tx.get(tables.users, id);
      if (!user || user.deletedAt !== null || user.guest) return null;
      if (viewerId !== null && viewerId !== id && (await hasBlocked(tx, id, viewerId))) return null;
      return user;
    },
  }, query, limit);
}

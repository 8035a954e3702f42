import { tables, type Tx, type UserRow } from "@playfield/core";
import { blockersAmong } from "./graph.js";
import { indexedCount, rebuildNames, searchNames, type SearchSubject } from "./name-search.js";

/*
 * SearchUsers over the name index. `saveUser` (services/accounts.ts) keeps
 * a user's names indexed as it writes them; users written around it (a bulk
 * import, a test's direct puts) are caught up by `syncUserNames`, which
 * packs every user's names into one segment (see docs/social.md).
 */

export function userSubject(user: UserRow): SearchSubject {
  return { kind: "u", id: user.id, nameKey: user.usernameKey, otherNames: user.displayName ? [user.displayName] : [] };
}

/** Below this many users indexed as rows, rows stay rows; above it (and above half the segment), they are packed. */
export const PACK_ROWS_MIN = 1024;

/**
 * Rebuilds the users' search index from the users table when the number of
 * indexed users differs from the number of users (someone wrote users
 * without `saveUser` since the last search), or when the users indexed as
 * rows outgrow half the segment (repacked: the segment holds a user in
 * ~120 bytes, rows in ~6 KB; doubling keeps the cost amortized linear).
 * O(log n) when neither holds.
 */
export async function syncUserNames(tx: Tx): Promise<void> {
  const [users, indexed] = await Promise.all([tx.count(tables.users, "byUsername"), indexedCount(tx, "u")]);
  const packed = indexed.subjects - indexed.asRows;
  if (users === indexed.subjects && indexed.asRows <= Math.max(PACK_ROWS_MIN, packed / 2)) return;
  const rows = await tx.query(tables.users, "byUsername");
  await rebuildNames(tx, "u", rows.map(userSubject));
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
    async loadMany(ids) {
      const users = await tx.getMany(tables.users, ids);
      const shown = users.filter((user): user is UserRow => user !== undefined && user.deletedAt === null && !user.guest);
      const others = viewerId === null ? [] : shown.map((user) => user.id).filter((id) => id !== viewerId);
      const blockers = viewerId === null ? new Set<string>() : await blockersAmong(tx, others, viewerId);
      return users.map((user) => (user && user.deletedAt === null && !user.guest && !blockers.has(user.id) ? user : null));
    },
  }, query, limit);
}

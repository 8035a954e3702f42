import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compareMatches, matchName, normalizeQuery, tables, usernameKey, type UserRow } from "@playfield/core";
import { createMemoryStorage } from "../src/ports/memory-storage/memory-storage.js";
import { indexNames } from "../src/services/social/name-search.js";
import { searchUsers, userSubject } from "../src/services/social/user-search.js";

/*
 * The indexed search answers exactly what a full scan ranked by
 * `matchName` answers, for any names and query, including after renames
 * (stale terms must never show).
 */

const settings = { whoCanMessage: "everyone", whoCanFriend: "everyone", whoCanJoin: "everyone", showOnlineStatus: true, emailNotifications: true, theme: "system" } as const;

const userRow = (i: number, username: string, displayName: string): UserRow => ({
  id: `usr_${i}`, username, usernameKey: usernameKey(username), displayName, passwordHash: null, birthdate: null,
  guest: false, createdAt: i, deletedAt: null, settings,
});

const username = fc.stringMatching(/^[a-c][a-c0-9_]{1,6}[a-c]$/);
const displayName = fc.oneof(fc.constant(""), fc.stringMatching(/^[A-Ca-c ]{1,8}$/));

describe("searchUsers (indexed)", () => {
  it("should answer what a full scan ranked by matchName answers", async () => {
    await fc.assert(fc.asyncProperty(
      fc.uniqueArray(fc.record({ username, displayName }), { minLength: 1, maxLength: 25, selector: (u) => usernameKey(u.username) }),
      fc.array(fc.record({ at: fc.nat(), displayName })),
      fc.stringMatching(/^[a-c0-9_ ]{1,3}$/),
      fc.integer({ min: 1, max: 10 }),
      async (people, renames, rawQuery, limit) => {
        const storage = createMemoryStorage();
        const rows = people.map((p, i) => userRow(i, p.username, p.displayName));
        await storage.transact(async (tx) => { for (const row of rows) await tx.put(tables.users, row); });
        // A first search indexes everyone; later display-name changes reindex as UpdateProfile does.
        await storage.transact((tx) => searchUsers(tx, "a", 1, null));
        for (const { at, displayName } of renames) {
          const i = at % rows.length;
          rows[i] = { ...rows[i]!, displayName };
          await storage.transact(async (tx) => { await tx.put(tables.users, rows[i]!); await indexNames(tx, userSubject(rows[i]!)); });
        }
        const query = normalizeQuery(rawQuery);
        if (!query) return;
        const found = await storage.transact((tx) => searchUsers(tx, query, limit, null));
        const expected = rows
          .map((row) => ({ row, match: matchName(query, row.usernameKey, row.displayName ? [row.displayName] : []) }))
          .filter((x) => x.match !== null)
          .sort((x, y) => compareMatches({ ...x.match!, id: x.row.id }, { ...y.match!, id: y.row.id }))
          .slice(0, limit)
          .map((x) => x.row.id);
        expect(found.map((u) => u.id)).toEqual(expected);
      },
    ), { numRuns: 150 });
  });
});

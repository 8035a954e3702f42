import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { compareMatches, matchName, normalizeQuery, tables, usernameKey, type UserRow } from "@playfield/core";
import { createMemoryStorage } from "../src/ports/memory-storage/memory-storage.js";
import { saveUser } from "../src/services/identity/accounts.js";
import { indexedCount } from "../src/services/social/name-search.js";
import { PACK_ROWS_MIN, searchUsers } from "../src/services/social/user-search.js";

/*
 * SearchUsers answers what a full scan of the users ranked by `matchName`
 * answers, whatever mix of writes came before: users loaded in bulk around
 * saveUser (packed into a segment by the next search), users written and
 * renamed through saveUser before and after that (indexed as rows), names
 * renamed back to what the segment holds, guests and deleted accounts, and
 * searches in between.
 */

const settings = { whoCanMessage: "everyone", whoCanFriend: "everyone", whoCanJoin: "everyone", showOnlineStatus: true, emailNotifications: true, theme: "system" } as const;

const userRow = (id: string, username: string, displayName: string, flags: { guest?: boolean; deleted?: boolean } = {}): UserRow => ({
  id, username, usernameKey: usernameKey(username), displayName, passwordHash: null, birthdate: null,
  guest: flags.guest ?? false, createdAt: 0, deletedAt: flags.deleted ? 1 : null, settings,
});

/** The answer of a full scan: live accounts matching `query`, best first. */
function fullScan(users: Iterable<UserRow>, query: string, limit: number): string[] {
  return [...users]
    .filter((user) => !user.guest && user.deletedAt === null)
    .map((user) => ({ user, match: matchName(query, user.usernameKey, user.displayName ? [user.displayName] : []) }))
    .filter((hit) => hit.match !== null)
    .sort((a, b) => compareMatches({ ...a.match!, id: a.user.id }, { ...b.match!, id: b.user.id }))
    .slice(0, limit)
    .map((hit) => hit.user.id);
}

const username = fc.stringMatching(/^[a-c][a-c0-9_]{1,6}[a-c]$/);
const displayName = fc.oneof(fc.constant(""), fc.stringMatching(/^[A-Ca-c ]{1,8}$/), fc.constantFrom("Ábc 𝒜b", "ab\u0000c"));
const query = fc.stringMatching(/^[a-c0-9_ ]{1,3}$/).map(normalizeQuery).filter((q) => q.length > 0);

/** One step against the storage and the model. */
const step = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant("bulk" as const), people: fc.array(fc.record({ username, displayName, guest: fc.boolean() }), { maxLength: 8 }) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("signUp" as const), username, displayName }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant("rename" as const), at: fc.nat(), displayName, username: fc.option(username) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant("restore" as const), at: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant("search" as const), query, limit: fc.integer({ min: 1, max: 8 }) }), weight: 3 },
);

describe("searchUsers (segment and rows)", () => {
  it("should answer what a full scan ranked by matchName answers, after any mix of bulk loads, saveUser writes and searches", async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), query, fc.integer({ min: 1, max: 10 }), async (steps, lastQuery, lastLimit) => {
      const storage = createMemoryStorage();
      const users = new Map<string, UserRow>();
      /** Each user's first row: renaming back to it restores what a segment built then holds. */
      const first = new Map<string, UserRow>();
      const taken = (key: string, id?: string) => [...users.values()].some((u) => u.usernameKey === key && u.id !== id);
      let next = 0;
      // Users loaded in bulk since the last search: until it runs, they are not counted as indexed.
      let pending = false;
      /** Every user is counted once, whether the segment, the rows or both hold their names: no needless rebuild. */
      const expectCounted = async () => {
        if (!pending) expect((await storage.transact((tx) => indexedCount(tx, "u"))).subjects).toBe(users.size);
      };
      const pick = (at: number) => [...users.values()][at % users.size];

      for (const s of steps) {
        if (s.kind === "bulk") {
          const rows = s.people.filter((p, i, all) => !taken(usernameKey(p.username)) && all.findIndex((q) => usernameKey(q.username) === usernameKey(p.username)) === i)
            .map((p) => userRow(`usr_${String(next++).padStart(3, "0")}`, p.username, p.displayName, { guest: p.guest }));
          await storage.transact(async (tx) => { for (const row of rows) await tx.put(tables.users, row); });
          for (const row of rows) { users.set(row.id, row); first.set(row.id, row); }
          pending ||= rows.length > 0;
        } else if (s.kind === "signUp") {
          if (taken(usernameKey(s.username))) continue;
          const row = userRow(`usr_${String(next++).padStart(3, "0")}`, s.username, s.displayName);
          await storage.transact((tx) => saveUser(tx, row));
          users.set(row.id, row);
          first.set(row.id, row);
          await expectCounted();
        } else if (s.kind === "search") {
          const found = await storage.transact((tx) => searchUsers(tx, s.query, s.limit, null));
          expect(found.map((u) => u.id)).toEqual(fullScan(users.values(), s.query, s.limit));
          pending = false;
          await expectCounted();
        } else {
          const user = pick(s.at);
          if (!user) continue;
          let row: UserRow;
          if (s.kind === "rename") {
            const name = s.username !== null && !taken(usernameKey(s.username), user.id) ? s.username : user.username;
            row = { ...user, username: name, usernameKey: usernameKey(name), displayName: s.displayName };
          } else if (s.kind === "restore") {
            const original = first.get(user.id)!;
            if (taken(original.usernameKey, user.id)) continue;
            row = { ...user, username: original.username, usernameKey: original.usernameKey, displayName: original.displayName };
          } else {
            row = { ...user, deletedAt: 1 };
          }
          await storage.transact((tx) => saveUser(tx, row));
          users.set(row.id, row);
          await expectCounted();
        }
      }
      const found = await storage.transact((tx) => searchUsers(tx, lastQuery, lastLimit, null));
      expect(found.map((u) => u.id)).toEqual(fullScan(users.values(), lastQuery, lastLimit));
    }), { numRuns: 200 });
  });
});

describe("syncUserNames", () => {
  it("should pack users indexed as rows once they outgrow PACK_ROWS_MIN, and still answer as a full scan", async () => {
    const storage = createMemoryStorage();
    const rows = Array.from({ length: PACK_ROWS_MIN + 1 }, (_, i) => userRow(`usr_${String(i).padStart(5, "0")}`, `pl_${i}x`, i % 3 ? "Ada Smith" : ""));
    await storage.transact(async (tx) => { for (const row of rows) await saveUser(tx, row); });
    expect(await storage.transact((tx) => indexedCount(tx, "u"))).toEqual({ subjects: rows.length, asRows: rows.length });

    const found = await storage.transact((tx) => searchUsers(tx, "1x", 10, null));

    expect(await storage.transact((tx) => indexedCount(tx, "u"))).toEqual({ subjects: rows.length, asRows: 0 });
    expect(found.map((u) => u.id)).toEqual(fullScan(rows, "1x", 10));
    expect((await storage.transact((tx) => searchUsers(tx, "smith", 5, null))).map((u) => u.id)).toEqual(fullScan(rows, "smith", 5));
  });

  it("should leave users written through saveUser as rows and build nothing when every user is indexed", async () => {
    const storage = createMemoryStorage();
    const rows = [userRow("usr_1", "ada_l", "Ada Lovelace"), userRow("usr_2", "grace", "Grace Hopper")];
    await storage.transact(async (tx) => { for (const row of rows) await saveUser(tx, row); });

    expect((await storage.transact((tx) => searchUsers(tx, "love", 5, null))).map((u) => u.id)).toEqual(["usr_1"]);
    expect(await storage.transact((tx) => indexedCount(tx, "u"))).toEqual({ subjects: 2, asRows: 2 });
  });

  it("should index users loaded around saveUser by the next search, and keep no rows for them", async () => {
    const storage = createMemoryStorage();
    const rows = [userRow("usr_1", "ada_l", "Ada Lovelace"), userRow("usr_2", "grace", "Grace Hopper"), userRow("usr_3", "linus", "")];
    await storage.transact((tx) => saveUser(tx, rows[0]!));
    await storage.transact(async (tx) => { await tx.put(tables.users, rows[1]!); await tx.put(tables.users, rows[2]!); });

    expect((await storage.transact((tx) => searchUsers(tx, "hop", 5, null))).map((u) => u.id)).toEqual(["usr_2"]);
    expect(await storage.transact((tx) => indexedCount(tx, "u"))).toEqual({ subjects: 3, asRows: 0 });
  });
});

describe("indexNames", () => {
  it("should index a packed user's new names as rows, and drop the rows when the names go back to what the segment holds", async () => {
    const storage = createMemoryStorage();
    const ada = userRow("usr_1", "ada_l", "Ada Lovelace");
    await storage.transact(async (tx) => { await tx.put(tables.users, ada); await tx.put(tables.users, userRow("usr_2", "grace", "")); });
    await storage.transact((tx) => searchUsers(tx, "ada", 5, null));

    await storage.transact((tx) => saveUser(tx, { ...ada, displayName: "Countess" }));
    expect(await storage.transact((tx) => indexedCount(tx, "u"))).toEqual({ subjects: 2, asRows: 1 });
    expect((await storage.transact((tx) => searchUsers(tx, "count", 5, null))).map((u) => u.id)).toEqual(["usr_1"]);
    expect(await storage.transact((tx) => searchUsers(tx, "love", 5, null))).toEqual([]);

    await storage.transact((tx) => saveUser(tx, ada));
    expect(await storage.transact((tx) => indexedCount(tx, "u"))).toEqual({ subjects: 2, asRows: 0 });
    expect((await storage.transact((tx) => searchUsers(tx, "love", 5, null))).map((u) => u.id)).toEqual(["usr_1"]);
    expect(await storage.transact((tx) => searchUsers(tx, "count", 5, null))).toEqual([]);
  });

  it("should write nothing for a packed user saved with the same names (an avatar change)", async () => {
    const storage = createMemoryStorage();
    const ada = userRow("usr_1", "ada_l", "Ada Lovelace");
    await storage.transact((tx) => tx.put(tables.users, ada));
    await storage.transact((tx) => searchUsers(tx, "ada", 5, null));

    await storage.transact((tx) => saveUser(tx, { ...ada, avatarVersion: 2 }));

    expect(await storage.transact((tx) => indexedCount(tx, "u"))).toEqual({ subjects: 1, asRows: 0 });
  });
});

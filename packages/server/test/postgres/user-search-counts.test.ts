/*
 * SearchUsers counts every user and every user indexed as rows on each
 * search, to catch users written around saveUser. On PostgreSQL a plain
 * count walks every index entry; both indexes are counted, so the adapter
 * answers from bucket counts. Buckets of 4 entries here, so that the users
 * below split and merge them. Skipped (said once by the global setup) when
 * the database does not answer; in CI it must.
 */
import { describe, expect, inject, it } from "vitest";
import { tables, usernameKey, type UserRow } from "@playfield/core";
import { createPostgresStorage } from "@playfield/storage-postgres";
import { adminQuery, dropSchema, freshSchema } from "../../../storage-postgres/test/postgres-schema.js";
import { saveUser } from "../../src/services/identity/accounts.js";
import { searchUsers } from "../../src/services/social/user-search.js";

const url = inject("postgresUrl");
const settings = { whoCanMessage: "everyone", whoCanFriend: "everyone", whoCanJoin: "everyone", showOnlineStatus: true, emailNotifications: true, theme: "system" } as const;
const userRow = (i: number): UserRow => ({
  id: `usr_${String(i).padStart(5, "0")}`, username: `ada_${i}`, usernameKey: usernameKey(`ada_${i}`), displayName: `Ada ${i}`, passwordHash: null, birthdate: null,
  guest: false, createdAt: 0, deletedAt: null, settings,
});

describe.skipIf(url === null)("SearchUsers' counts on PostgreSQL", () => {
  it("should count users and names indexed as rows from bucket counts, and still find users written around saveUser", async () => {
    const schema = freshSchema("user_search_counts");
    const storage = createPostgresStorage({ url: url!, schema, countedBucketRows: 4 });
    try {
      await storage.init(tables.allTables);
      const layouts = await adminQuery<{ name: string; layout: string }>(url!, `SELECT name, layout FROM "${schema}"._playfield_tables WHERE name IN ('users', 'search_sources') ORDER BY name`);
      expect(layouts.map(({ name, layout }) => [name, Object.values(JSON.parse(layout).indexes as Record<string, { counted?: boolean }>).map((i) => i.counted)]))
        .toEqual([["search_sources", [true]], ["users", [true]]]);
      const found = async (query: string) => (await storage.transact((tx) => searchUsers(tx, query, 100, null))).map((u) => u.id).sort();
      const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => userRow(from + i).id);
      // 30 written around saveUser, found by the first search (which packs them); 10 through saveUser (rows); 5 around again; 1 deleted around it.
      await storage.transact(async (tx) => { for (let i = 0; i < 30; i++) await tx.put(tables.users, userRow(i)); });
      expect(await found("ada")).toEqual(ids(0, 30));
      await storage.transact(async (tx) => { for (let i = 30; i < 40; i++) await saveUser(tx, userRow(i)); });
      expect(await found("ada")).toEqual(ids(0, 40));
      await storage.transact(async (tx) => { for (let i = 40; i < 45; i++) await tx.put(tables.users, userRow(i)); });
      expect(await found("ada")).toEqual(ids(0, 45));
      await storage.transact((tx) => tx.delete(tables.users, userRow(7).id));
      expect(await found("ada")).toEqual(ids(0, 45).filter((id) => id !== userRow(7).id));
      expect(await storage.transact((tx) => tx.count(tables.users, "byUsername"))).toBe(44);
    } finally {
      await storage.close();
      await dropSchema(url!, schema);
    }
  });
});

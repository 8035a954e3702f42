import { describe, expect, it } from "vitest";
import { tables, usernameKey, type Storage, type TableDef, type Tx, type UserRow } from "@playfield/core";
import { createMemoryStorage } from "../src/ports/memory-storage/memory-storage.js";
import { saveUser } from "../src/services/identity/accounts.js";
import { searchUsers } from "../src/services/social/user-search.js";

/*
 * How the name index sits in storage: rows of JSON only (the PostgreSQL
 * adapter stores rows as JSON text), and a packed segment that writes and
 * searches do not read again once this process holds it (its id names its
 * content, so what a process holds is never stale).
 */

const settings = { whoCanMessage: "everyone", whoCanFriend: "everyone", whoCanJoin: "everyone", showOnlineStatus: true, emailNotifications: true, theme: "system" } as const;
const userRow = (i: number, displayName = `Ada ${i}`): UserRow => ({
  id: `usr_${String(i).padStart(5, "0")}`, username: `ada_${i}`, usernameKey: usernameKey(`ada_${i}`), displayName, passwordHash: null, birthdate: null,
  guest: false, createdAt: 0, deletedAt: null, settings,
});

/** A storage that records the tables each transaction reads. */
function recording(inner: Storage): Storage & { read: string[] } {
  const read: string[] = [];
  const wrap = (tx: Tx): Tx => ({
    ...tx,
    get: (table: TableDef<never>, id) => (read.push(table.name), tx.get(table, id)),
    getCached: (table: TableDef<never>, id) => (read.push(table.name), tx.getCached(table, id)),
    getMany: (table: TableDef<never>, ids) => (read.push(table.name), tx.getMany(table, ids)),
    query: (table: TableDef<never>, index, query) => (read.push(table.name), tx.query(table, index, query)),
    count: (table: TableDef<never>, index, query) => (read.push(table.name), tx.count(table, index, query)),
    put: (table, row) => tx.put(table, row),
    delete: (table, id) => tx.delete(table, id),
  } as Tx);
  return { ...inner, read, transact: (fn, options) => inner.transact((tx) => fn(wrap(tx)), options) };
}

describe("the name index in storage", () => {
  it("should hold JSON only: every search row reads back equal through JSON text", async () => {
    const storage = createMemoryStorage();
    await storage.transact(async (tx) => { for (let i = 0; i < 50; i++) await tx.put(tables.users, userRow(i)); });
    expect((await storage.transact((tx) => searchUsers(tx, "ada_1", 5, null))).map((u) => u.id)[0]).toBe("usr_00001");
    await storage.transact((tx) => saveUser(tx, userRow(3, "Grace Hopper")));
    const rows = await storage.transact(async (tx) => [
      ...(await tx.query(tables.searchSegments, "primary")),
      ...(await tx.query(tables.searchSegmentData, "primary")),
      ...(await tx.query(tables.searchSources, "primary")),
      ...(await tx.query(tables.searchTerms, "primary")),
    ]);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(JSON.parse(JSON.stringify(row))).toEqual(row);
    const [pointer] = await storage.transact((tx) => tx.query(tables.searchSegments, "primary"));
    expect(pointer).toMatchObject({ kind: "u", count: 50, overlap: 1 });
    expect(pointer!.segmentId).toMatch(/^u:[0-9a-f]{64}$/);
  });

  it("should not read the segment's data again in saveUser and searches once this process holds it, and read a new one after a rebuild", async () => {
    const storage = recording(createMemoryStorage());
    await storage.transact(async (tx) => { for (let i = 0; i < 50; i++) await tx.put(tables.users, userRow(i)); });
    await storage.transact((tx) => searchUsers(tx, "ada", 5, null));
    storage.read.length = 0;
    await storage.transact((tx) => saveUser(tx, userRow(7, "Renamed Seven")));
    expect((await storage.transact((tx) => searchUsers(tx, "seven", 5, null))).map((u) => u.id)).toEqual(["usr_00007"]);
    expect(storage.read).not.toContain("search_segment_data");

    // Users written around saveUser: the next search builds a segment of another id, and it answers.
    await storage.transact((tx) => tx.put(tables.users, userRow(60, "Linus Pauling")));
    expect((await storage.transact((tx) => searchUsers(tx, "pauling", 5, null))).map((u) => u.id)).toEqual(["usr_00060"]);
    const ids = await storage.transact(async (tx) => (await tx.query(tables.searchSegmentData, "primary")).map((row) => row.id));
    expect(ids).toHaveLength(1);
  });
});

/*
 * Creating and migrating tables on a PostgreSQL server: processes starting
 * at once, indexes added, dropped, made unique and re-versioned over stored
 * rows. Each test works in a schema of its own, dropped after the file.
 */
import { UniqueViolation, defineTable, type IndexDef, type TableDef } from "@playfield/core";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage, type SqlStorage } from "../src/index.js";
import { adminQuery, dropSchema, freshSchema } from "./postgres-schema.js";

const url = inject("postgresUrl");
const admin = <Row extends Record<string, unknown>>(text: string) => adminQuery(url!, text) as Promise<Row[]>;

interface Account { id: string; owner: string; balance: number }
const account = (id: string, owner: string, balance: number): Account => ({ id, owner, balance });

/** The table "accounts" as some version of the code declares it. */
function accounts(indexes: Record<string, IndexDef<Account>>): TableDef<Account> {
  return defineTable<Account>()({ name: "mig_accounts", primaryKey: (row) => row.id, indexes });
}

describe.skipIf(url === null)("PostgreSQL migrations", () => {
  const schemas: string[] = [];
  const opened: SqlStorage[] = [];
  const open = (schema: string) => {
    const storage = createPostgresStorage({ url: url!, schema, pool: { connectionString: url!, max: 2 } });
    opened.push(storage);
    return storage;
  };
  const newSchema = () => {
    const schema = freshSchema("migrations");
    schemas.push(schema);
    return schema;
  };
  afterAll(async () => {
    await Promise.all(opened.map((storage) => storage.close()));
    for (const schema of schemas) await dropSchema(url!, schema);
  });

  it("should create every table once when several processes start at once, and let each use them", async () => {
    const schema = newSchema();
    const Table = accounts({ byOwner: { key: (row) => [row.owner, row.balance] } });
    const Other = defineTable<{ id: string }>()({ name: "mig_other", primaryKey: (row) => row.id, indexes: {} });
    const processes = Array.from({ length: 4 }, () => open(schema));
    await Promise.all(processes.map((storage) => storage.init([Table, Other])));
    await Promise.all(processes.map((storage, i) => storage.transact((tx) => tx.put(Table, account(`a${i}`, "ann", i)))));
    const seen = await processes[3]!.transact((tx) => tx.query(Table, "byOwner", { equals: ["ann"] }));
    expect(seen.map((row) => row.id)).toEqual(["a0", "a1", "a2", "a3"]);
    expect(await admin(`SELECT version FROM "${schema}"._playfield_migrations`)).toEqual([{ version: 1 }]);
    expect(await admin(`SELECT name FROM "${schema}"._playfield_tables ORDER BY name`)).toEqual([{ name: "mig_accounts" }, { name: "mig_other" }]);
  });

  it("should fill a new index from the stored rows, drop an index no longer declared, and keep the others", async () => {
    const schema = newSchema();
    const v1 = accounts({ byOwner: { key: (row) => [row.owner, row.balance] } });
    const before = open(schema);
    await before.transact(async (tx) => {
      for (const row of [account("a1", "ann", 30), account("a2", "bob", 10), account("a3", "ann", 20)]) await tx.put(v1, row);
    });

    const v2 = accounts({ byBalance: { key: (row) => [row.balance] } });
    const after = open(schema);
    await after.init([v2]);
    expect((await after.transact((tx) => tx.query(v2, "byBalance", { order: "desc" }))).map((row) => row.id)).toEqual(["a1", "a3", "a2"]);
    expect(await after.transact((tx) => tx.count(v2, "byBalance", { range: { gte: 20 } }))).toBe(2);
    await expect(after.transact((tx) => tx.query(v2, "byOwner"))).rejects.toThrow(/no index/);
    expect(await columns(schema)).toEqual(["data", "id", "k2"]);

    // A row written after the migration lands in the new index as any other.
    await after.transact((tx) => tx.put(v2, account("a4", "cat", 25)));
    expect((await after.transact((tx) => tx.query(v2, "byBalance", { range: { gt: 20 } }))).map((row) => row.id)).toEqual(["a4", "a1"]);
  });

  it("should rebuild an index made unique, which then refuses a second row with its key", async () => {
    const schema = newSchema();
    const plain = accounts({ byOwner: { key: (row) => [row.owner] } });
    const first = open(schema);
    await first.transact((tx) => tx.put(plain, account("a1", "ann", 1)));
    const unique = accounts({ byOwner: { key: (row) => [row.owner], unique: true } });
    const second = open(schema);
    await second.init([unique]);
    await expect(second.transact((tx) => tx.put(unique, account("a2", "ann", 2)))).rejects.toBeInstanceOf(UniqueViolation);
    await second.transact((tx) => tx.put(unique, account("a2", "bob", 2)));
    expect(await second.transact((tx) => tx.count(unique, "byOwner"))).toBe(2);
  });

  it("should re-encode the stored keys of an index whose version is raised", async () => {
    const schema = newSchema();
    const v1 = accounts({ byRank: { key: (row) => [row.balance] } });
    const first = open(schema);
    await first.transact(async (tx) => {
      for (const row of [account("a1", "ann", 30), account("a2", "bob", 10), account("a3", "cat", 20)]) await tx.put(v1, row);
    });
    // The same index, now keyed by owner: a new key function comes with a new version.
    const v2 = accounts({ byRank: { key: (row) => [row.owner], version: 2 } });
    const second = open(schema);
    await second.init([v2]);
    expect((await second.transact((tx) => tx.query(v2, "byRank"))).map((row) => row.id)).toEqual(["a1", "a2", "a3"]);
    expect(await second.transact((tx) => tx.count(v2, "byRank", { equals: ["bob"] }))).toBe(1);
  });

  it("should restore a snapshot into a schema that lacks its tables, making them from the recorded layout", async () => {
    const Table = accounts({ byOwner: { key: (row) => [row.owner, row.balance] }, byId: { key: (row) => [row.id], unique: true } });
    const source = open(newSchema());
    await source.transact(async (tx) => {
      for (const row of [account("a1", "ann", 3), account("a2", "ann", 1), account("a3", "bob", 2)]) await tx.put(Table, row);
    });
    const snapshot = await source.snapshot!();
    const target = open(newSchema());
    await target.restore!(snapshot);
    expect((await target.transact((tx) => tx.query(Table, "byOwner", { equals: ["ann"] }))).map((row) => row.id)).toEqual(["a2", "a1"]);
    await expect(target.transact((tx) => tx.put(Table, { ...account("a9", "cat", 0), id: "a1" }))).resolves.toBeUndefined();
    expect(await target.transact((tx) => tx.count(Table, "byId"))).toBe(3);
    // A layout that changed since the snapshot is refused, and nothing changes.
    const changed = accounts({ byOwner: { key: (row) => [row.owner] } });
    await target.init([changed]);
    await expect(target.restore!(snapshot)).rejects.toThrow(/changed its indexes/);
    expect(await target.transact((tx) => tx.count(changed, "byOwner"))).toBe(3);
  });

  it("should refuse a schema that a newer adapter migrated", async () => {
    const schema = newSchema();
    const storage = open(schema);
    await storage.init([]);
    await admin(`INSERT INTO "${schema}"._playfield_migrations (version) VALUES (99)`);
    await expect(open(schema).init([accounts({})])).rejects.toThrow(/newer than this adapter/);
  });

  /** The columns of the accounts table, by name. */
  async function columns(schema: string): Promise<string[]> {
    const rows = await admin<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_schema = '${schema}' AND table_name = 'mig_accounts' ORDER BY column_name`);
    return rows.map((row) => row.column_name);
  }
});

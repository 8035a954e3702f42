/*
 * Statements prepared per connection (prepared-statements.ts), on a real
 * database: a connection executes what it prepared, answers stay right when
 * a message that prepared statements fails, and when the connection
 * deallocates them all and prepares again. On PGlite and, when it answers,
 * on PostgreSQL, each with one connection whose statements the test holds.
 */
import { PGlite } from "@electric-sql/pglite";
import { defineTable, UniqueViolation } from "@playfield/core";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createSqlStorage, pgDatabase, pgliteDatabase, type SqlDatabase } from "../src/index.js";
import { PreparedStatements } from "../src/prepared-statements.js";
import { simpleTexts } from "../src/sql-statement.js";
import { dropSchema, freshSchema } from "./postgres-schema.js";

interface Row { id: string; n: number; tag: string }
const Plain = defineTable<Row>()({ name: "prep_plain", primaryKey: (row) => row.id, indexes: { byN: { key: (row) => [row.n] } } });
const Unique = defineTable<Row>()({ name: "prep_unique", primaryKey: (row) => row.id, indexes: { byTag: { key: (row) => [row.tag], unique: true } } });

/** `database` (one connection), its statements prepared by `statements`, every statement it is sent pushed to `sent` (as PREPARE and EXECUTE texts). */
function holding(database: SqlDatabase, statements: PreparedStatements, sent: string[]): SqlDatabase {
  return {
    ...database,
    session: (fn) => database.session((session) => fn({
      prepared: statements,
      query: (text, params) => session.query(text, params),
      batch: (statements) => {
        sent.push(...statements.flatMap(simpleTexts));
        return session.batch(statements);
      },
    })),
    // Every message on a session, whole transactions too: the test holds the statements of its one connection.
    whole: undefined,
  };
}

function suite(open: () => Promise<{ database: SqlDatabase; schema?: string }>) {
  /** Runs transactions of every kind, a failed one among them, and answers what the connection was sent. */
  async function run(statements: PreparedStatements): Promise<string[]> {
    const { database, schema } = await open();
    const sent: string[] = [];
    const storage = createSqlStorage(holding(database, statements, sent), schema === undefined ? {} : { schema });
    try {
      await storage.init([Plain, Unique]);
      for (let i = 0; i < 12; i++) {
        await storage.transact(async (tx) => {
          await tx.put(Plain, { id: `p${i}`, n: i % 3, tag: "" });
          await tx.put(Unique, { id: `u${i}`, n: i, tag: `t${i}` });
        });
        // A clash in a message that may prepare statements: nothing of it stays, and the next transactions run.
        await expect(storage.transact((tx) => tx.put(Unique, { id: `v${i}`, n: i, tag: `t${i}` }))).rejects.toBeInstanceOf(UniqueViolation);
        const [plain, unique, byN] = await storage.transact((tx) => Promise.all([
          tx.get(Plain, `p${i}`), tx.get(Unique, `u${i}`), tx.query(Plain, "byN", { equals: [i % 3] }),
        ]));
        expect(plain).toEqual({ id: `p${i}`, n: i % 3, tag: "" });
        expect(unique?.tag).toBe(`t${i}`);
        expect(byN.map((row) => row.id).sort()).toEqual(Array.from({ length: i + 1 }, (_, j) => j).filter((j) => j % 3 === i % 3).map((j) => `p${j}`).sort());
      }
      expect(await storage.transact((tx) => tx.get(Unique, "v3"))).toBeUndefined();
      // Every get and put went as EXECUTE; queries, whose best plan depends on their values, with their values written in.
      expect(sent.some((text) => /^(SELECT data FROM \S+ WHERE id = |INSERT |WITH ).*'\\x/s.test(text))).toBe(false);
      expect(sent.some((text) => /^SELECT data FROM .*'\\x.* ORDER BY /s.test(text))).toBe(true);
      expect(sent.some((text) => text.startsWith("PREPARE ") && text.includes("ORDER BY"))).toBe(false);
      return sent;
    } finally {
      await storage.close();
    }
  }
  const kinds = (sent: string[]) => ({
    executed: sent.filter((text) => text.startsWith("EXECUTE ")).length,
    prepared: sent.filter((text) => text.startsWith("PREPARE ")).length,
    deallocated: sent.filter((text) => text === "DEALLOCATE ALL").length,
  });

  it("should execute what the connection prepared once, with the same answers after failed messages", async () => {
    const { executed, prepared, deallocated } = kinds(await run(new PreparedStatements()));
    expect(deallocated).toBe(0);
    expect(executed).toBeGreaterThan(4 * prepared);
  }, 60_000);

  it("should run a transaction again, its statements prepared anew, when the connection lost them (a pooler in transaction mode)", async () => {
    const { database, schema } = await open();
    const sent: string[] = [];
    const storage = createSqlStorage(holding(database, new PreparedStatements(), sent), schema === undefined ? {} : { schema });
    try {
      await storage.init([Plain]);
      await storage.transact((tx) => tx.put(Plain, { id: "a", n: 1, tag: "" }));
      expect(await storage.transact((tx) => tx.get(Plain, "a"))).toMatchObject({ n: 1 });
      // What a server connection of its own would hold: none of the statements this one prepared.
      await database.session((session) => session.query("DEALLOCATE ALL"));
      sent.length = 0;
      expect(await storage.transact(async (tx) => {
        const row = await tx.get(Plain, "a");
        await tx.put(Plain, { ...row!, n: row!.n + 1 });
        return tx.get(Plain, "a");
      })).toMatchObject({ n: 2 });
      expect(sent.filter((text) => text === "DEALLOCATE ALL")).toHaveLength(1);
      expect(await storage.transact((tx) => tx.get(Plain, "a"))).toMatchObject({ n: 2 });
    } finally {
      await storage.close();
    }
  }, 60_000);

  it("should answer the same when the connection deallocates its statements and prepares them again", async () => {
    // Two names at most: fewer than the statements the run prepares.
    const { deallocated } = kinds(await run(new PreparedStatements(2)));
    expect(deallocated).toBeGreaterThan(1);
  }, 60_000);
}

describe("prepared statements on PGlite", () => {
  suite(async () => {
    return { database: pgliteDatabase(new PGlite()) };
  });
});

const url = inject("postgresUrl");
describe.skipIf(url === null)("prepared statements on PostgreSQL", () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(url!, schema);
  });
  it("should prepare nothing when told not to (a pooler in transaction mode in front)", async () => {
    const literal = pgDatabase(url!, { prepare: false });
    const prepared = pgDatabase(url!);
    try {
      expect(await literal.session(async (session) => session.prepared)).toBeUndefined();
      expect(await prepared.session(async (session) => session.prepared)).toBeInstanceOf(PreparedStatements);
    } finally {
      await literal.close();
      await prepared.close();
    }
  });

  it("should answer the same with nothing prepared: every statement written in, its rows answered", async () => {
    const schema = freshSchema("prepared");
    schemas.push(schema);
    const storage = createSqlStorage(pgDatabase(url!, { prepare: false }), { schema });
    try {
      await storage.init([Plain, Unique]);
      await storage.transact(async (tx) => {
        await tx.put(Plain, { id: "a", n: 1, tag: "" });
        await tx.put(Unique, { id: "u", n: 2, tag: "t" });
      });
      await expect(storage.transact((tx) => tx.put(Unique, { id: "v", n: 3, tag: "t" }))).rejects.toBeInstanceOf(UniqueViolation);
      const [plain, unique, byN] = await storage.transact((tx) => Promise.all([tx.get(Plain, "a"), tx.get(Unique, "u"), tx.query(Plain, "byN", { equals: [1] })]));
      expect(plain).toEqual({ id: "a", n: 1, tag: "" });
      expect(unique).toEqual({ id: "u", n: 2, tag: "t" });
      expect(byN.map((row) => row.id)).toEqual(["a"]);
    } finally {
      await storage.close();
    }
  });

  suite(async () => {
    const schema = freshSchema("prepared");
    schemas.push(schema);
    return { database: pgDatabase(new pg.Pool({ connectionString: url!, max: 1 })), schema };
  });
});

/*
 * Statements prepared per connection through node-postgres's named query
 * configs (pg-queries.ts), on a PostgreSQL server: each statement with
 * parameters is parsed once per connection and bound by name after that,
 * answers stay right when a transaction fails, a connection whose
 * statements were lost (a pooler in between) or that holds too many is
 * replaced, and nothing is prepared when told not to. Skipped (said once by
 * the global setup) when PostgreSQL does not answer.
 */
import { defineTable, UniqueViolation } from "@playfield/core";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createSqlStorage, pgDatabase } from "../src/index.js";
import { MAX_PREPARED } from "../src/pg-queries.js";
import { dropSchema, freshSchema } from "./postgres-schema.js";

interface Row { id: string; n: number; tag: string }
const Plain = defineTable<Row>()({ name: "prep_plain", primaryKey: (row) => row.id, indexes: { byN: { key: (row) => [row.n] } } });
const Unique = defineTable<Row>()({ name: "prep_unique", primaryKey: (row) => row.id, indexes: { byTag: { key: (row) => [row.tag], unique: true } } });

/** What the pool's connections were sent: Parse messages of named statements, and Binds by name. */
interface Sent { parsed: number; bound: number }

/** A pool of one connection, its named Parses and Binds counted (the driver's connection, watched). */
function countedPool(url: string, sent: Sent): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  pool.on("connect", (client) => {
    const connection = (client as unknown as { connection: Record<"parse" | "bind", (config: { name?: string; statement?: string }) => void> }).connection;
    const parse = connection.parse.bind(connection);
    const bind = connection.bind.bind(connection);
    connection.parse = (config) => void (config.name ? sent.parsed++ : 0, parse(config));
    connection.bind = (config) => void (config.statement ? sent.bound++ : 0, bind(config));
  });
  return pool;
}

const url = inject("postgresUrl");
describe.skipIf(url === null)("prepared statements on PostgreSQL", () => {
  const schemas: string[] = [];
  const schema = () => {
    schemas.push(freshSchema("prepared"));
    return schemas.at(-1)!;
  };
  afterAll(async () => {
    for (const name of schemas) await dropSchema(url!, name);
  });

  /** Runs transactions of every kind, a failed one among them, checking each answer. */
  async function run(database: ReturnType<typeof pgDatabase>): Promise<void> {
    const storage = createSqlStorage(database, { schema: schema() });
    try {
      await storage.init([Plain, Unique]);
      for (let i = 0; i < 8; i++) {
        await storage.transact(async (tx) => {
          await tx.put(Plain, { id: `p${i}`, n: i % 3, tag: "" });
          await tx.put(Unique, { id: `u${i}`, n: i, tag: `t${i}` });
        });
        // A clash: nothing of it stays, and the next transactions run.
        await expect(storage.transact((tx) => tx.put(Unique, { id: `v${i}`, n: i, tag: `t${i}` }))).rejects.toBeInstanceOf(UniqueViolation);
        const [plain, unique, byN] = await storage.transact((tx) => Promise.all([
          tx.get(Plain, `p${i}`), tx.get(Unique, `u${i}`), tx.query(Plain, "byN", { equals: [i % 3] }),
        ]));
        expect(plain).toEqual({ id: `p${i}`, n: i % 3, tag: "" });
        expect(unique?.tag).toBe(`t${i}`);
        expect(byN.map((row) => row.id).sort()).toEqual(Array.from({ length: i + 1 }, (_, j) => j).filter((j) => j % 3 === i % 3).map((j) => `p${j}`).sort());
      }
      expect(await storage.transact((tx) => tx.get(Unique, "v3"))).toBeUndefined();
    } finally {
      await storage.close();
    }
  }

  it("should parse each statement once per connection and bind it by name after, with the same answers after failed transactions", async () => {
    const sent: Sent = { parsed: 0, bound: 0 };
    await run(pgDatabase(countedPool(url!, sent)));
    expect(sent.parsed).toBeGreaterThan(0);
    expect(sent.bound).toBeGreaterThan(4 * sent.parsed);
  }, 60_000);

  it("should answer the same with nothing prepared (a pooler in transaction mode in front)", async () => {
    const sent: Sent = { parsed: 0, bound: 0 };
    await run(pgDatabase(countedPool(url!, sent), { prepare: false }));
    expect(sent).toEqual({ parsed: 0, bound: 0 });
  }, 60_000);

  it("should run a transaction again on a new connection when its connection lost its statements", async () => {
    const database = pgDatabase(new pg.Pool({ connectionString: url!, max: 1 }));
    const storage = createSqlStorage(database, { schema: schema() });
    try {
      await storage.init([Plain]);
      await storage.transact((tx) => tx.put(Plain, { id: "a", n: 1, tag: "" }));
      expect(await storage.transact((tx) => tx.get(Plain, "a"))).toMatchObject({ n: 1 });
      // What a server connection of its own would hold: none of the statements this one prepared.
      const lost = await database.session(async (session) => {
        await session.query("DEALLOCATE ALL");
        return (await session.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))[0]!.pid;
      });
      expect(await storage.transact(async (tx) => {
        const row = await tx.get(Plain, "a");
        await tx.put(Plain, { ...row!, n: row!.n + 1 });
        return tx.get(Plain, "a");
      })).toMatchObject({ n: 2 });
      expect(await database.session(async (session) => (await session.query<{ pid: number }>("SELECT pg_backend_pid() AS pid"))[0]!.pid)).not.toBe(lost);
    } finally {
      await storage.close();
    }
  }, 60_000);

  it("should replace a connection once it holds more than MAX_PREPARED statements", async () => {
    const database = pgDatabase(new pg.Pool({ connectionString: url!, max: 1 }));
    const pid = (session: { query<Row>(text: string): Promise<Row[]> }) => session.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    try {
      const first = await database.session(async (session) => {
        for (let i = 0; i < MAX_PREPARED; i++) await session.query(`SELECT $1::int + ${i}`, [i]);
        return (await pid(session))[0]!.pid;
      });
      // Up to MAX_PREPARED, kept; one more, and it is closed when given back.
      const second = await database.session(async (session) => {
        await session.query(`SELECT $1::int + ${MAX_PREPARED}`, [0]);
        return (await pid(session))[0]!.pid;
      });
      expect(second).toBe(first);
      expect((await database.session(pid))[0]!.pid).not.toBe(first);
    } finally {
      await database.close();
    }
  }, 60_000);
});

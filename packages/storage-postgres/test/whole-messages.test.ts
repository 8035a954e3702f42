/*
 * Whole transactions of many callers in one write (whole-messages.ts), on a
 * PostgreSQL server: messages sent while the one connection is busy go
 * together; one that fails fails alone, the ones before it stay committed
 * and the ones after it run once, never twice; the connection is left with
 * no transaction open. Skipped (said once by the global setup) when
 * PostgreSQL does not answer.
 */
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { survivesLostConnections } from "../src/pg-database.js";
import { PreparedStatements } from "../src/prepared-statements.js";
import { simpleTexts, type Sql } from "../src/sql-statement.js";
import { FLUSH, WholeMessages } from "../src/whole-messages.js";
import { adminQuery, dropSchema, freshSchema } from "./postgres-schema.js";

const url = inject("postgresUrl");

/** What one message does: adds 1 to a counter and logs its id; "fails" divides by zero after that; "clashes" logs an id taken. */
type Kind = "adds" | "fails" | "clashes";

describe.skipIf(url === null)("whole transactions in one write, on PostgreSQL", () => {
  const schema = freshSchema("whole");
  let pool: pg.Pool;
  let whole: WholeMessages;
  /** The statements each connection prepared (the pool's one, then the one after it was lost). */
  const prepared = new WeakMap<pg.PoolClient, PreparedStatements>();
  const table = (name: string) => `"${schema}".${name}`;

  beforeAll(async () => {
    await adminQuery(url!, `CREATE SCHEMA "${schema}"; CREATE TABLE ${table("counter")} (id int PRIMARY KEY, n int NOT NULL);
      CREATE TABLE ${table("log")} (id text PRIMARY KEY); INSERT INTO ${table("log")} VALUES ('taken')`);
    // One connection: whatever is sent while it is busy waits, and goes in the next write.
    pool = new pg.Pool({ connectionString: url!, max: 1 });
    survivesLostConnections(pool);
    whole = new WholeMessages({
      pool,
      preparedOf: (client) => prepared.get(client) ?? prepared.set(client, new PreparedStatements()).get(client),
    });
  });
  afterAll(async () => {
    await pool.end();
    await dropSchema(url!, schema);
  });

  /** The message of kind `kind` for counter `counter` and log id `id`, its parameterized statements prepared where the connection keeps them. */
  const message = (kind: Kind, counter: number, id: string) => (prepared: PreparedStatements | undefined) => {
    const statements: Sql[] = ["BEGIN ISOLATION LEVEL SERIALIZABLE"];
    const fresh: string[] = [];
    const add = (text: string, params: unknown[]) => {
      if (prepared === undefined) statements.push(text.replace(/\$(\d)/g, (_, i: string) => `'${String(params[Number(i) - 1])}'`));
      else prepared.write(statements, text, params, fresh);
    };
    add(`INSERT INTO ${table("counter")} AS c VALUES ($1::int, 1) ON CONFLICT (id) DO UPDATE SET n = c.n + 1 RETURNING n`, [counter]);
    add(`INSERT INTO ${table("log")} VALUES ($1::text)`, [kind === "clashes" ? "taken" : id]);
    if (kind === "fails") statements.push("SELECT 1 / 0");
    statements.push("COMMIT");
    return { statements, fresh };
  };

  const counters = async () => new Map((await adminQuery<{ id: number; n: number }>(url!, `SELECT id, n FROM ${table("counter")}`)).map((row) => [row.id, row.n]));
  const logged = async () => new Set((await adminQuery<{ id: string }>(url!, `SELECT id FROM ${table("log")}`)).map((row) => row.id));

  it("should send the messages asked for together in one write, each answering its own rows", async () => {
    const before = (await counters()).get(1) ?? 0;
    const writes = whole.writes;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => whole.send<{ n: number }>(message("adds", 1, `together-${i}`))));
    expect(whole.writes - writes).toBe(1);
    // Each answers the counter's value as its own statement left it: 1 to 6 past what it held, in order.
    expect(answers.map((rows) => rows.flat().find((row) => "n" in row)!.n)).toEqual(Array.from({ length: 6 }, (_, i) => before + i + 1));
    expect((await counters()).get(1)).toBe(before + 6);
  });

  it("should fail alone a message that cannot be written (a value no statement takes), and send the others in the same write", async () => {
    const writes = whole.writes;
    const unwritable = (prepared: PreparedStatements | undefined) => {
      const statements: Sql[] = ["BEGIN"];
      prepared?.write(statements, `SELECT $1::int`, [1.5], []);
      return { statements: [...statements, "COMMIT"], fresh: [] };
    };
    const settled = await Promise.allSettled([
      whole.send(message("adds", 5, "unwritable-0")), whole.send(unwritable), whole.send(message("adds", 5, "unwritable-2")),
    ]);
    expect(settled.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(TypeError);
    expect(whole.writes - writes).toBe(1);
    const log = await logged();
    expect(log.has("unwritable-0") && log.has("unwritable-2")).toBe(true);
  });

  it("should send the messages that came while the connection was busy together in the next write", async () => {
    const writes = whole.writes;
    // Busy for half a second: long past the 20 ms the five below are sent in, however slow the machine.
    const slow = whole.send(() => ({ statements: ["BEGIN", "SELECT pg_sleep(0.5)", "COMMIT"], fresh: [] }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(whole.writes - writes).toBe(1);
    const later = Array.from({ length: 5 }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 5));
      return whole.send(message("adds", 1, `later-${i}`));
    });
    await Promise.all([slow, ...later]);
    expect(whole.writes - writes).toBe(2);
  });

  it("should fail only the message with the failed statement, keep those before it and run those after it once", async () => {
    const before = (await counters()).get(2) ?? 0;
    const kinds: Kind[] = ["adds", "adds", "fails", "adds", "clashes", "adds"];
    const resent = whole.resent;
    const settled = await Promise.allSettled(kinds.map((kind, i) => whole.send(message(kind, 2, `mid-${i}`))));
    expect(settled.map((result) => result.status)).toEqual(kinds.map((kind) => (kind === "adds" ? "fulfilled" : "rejected")));
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ code: "22012" });
    expect((settled[4] as PromiseRejectedResult).reason).toMatchObject({ code: "23505" });
    expect((await counters()).get(2)).toBe(before + 4);
    // One write: the three behind the failure went again, and the one behind the clash once more.
    expect(whole.resent - resent).toBe(4);
    const log = await logged();
    expect(kinds.map((_, i) => log.has(`mid-${i}`))).toEqual(kinds.map((kind) => kind === "adds"));
    // The connection holds no transaction open: the next user begins one of its own.
    const client = await pool.connect();
    try {
      expect(client.getTransactionStatus()).toBe("I");
      await client.query("BEGIN; SELECT 1; COMMIT");
    } finally {
      client.release();
    }
  });

  it("should answer no message before the write-ahead log is flushed past its commit, a failure in the write or not", async () => {
    const events: string[] = [];
    const connect = pool.connect.bind(pool);
    // Every query the connection is sent, in order with the answers.
    pool.connect = (async () => {
      const client = await connect();
      const query = client.query.bind(client) as (q: unknown) => unknown;
      (client as { query: unknown }).query = (q: unknown) => {
        // A write's statements as the texts of a simple query (sql-statement.ts), to read as one.
        const text = typeof q === "string" ? q : (q as { statements: Sql[] }).statements.flatMap(simpleTexts).join(";\n");
        events.push(`sent ${text}`);
        return query(q);
      };
      return client;
    }) as typeof pool.connect;
    try {
      const kinds: Kind[] = ["adds", "fails", "adds"];
      await Promise.allSettled(kinds.map((kind, i) => whole.send(message(kind, 3, `flush-${i}`)).then(() => events.push(`answered ${i}`))));
    } finally {
      pool.connect = connect;
    }
    const sent = events.filter((event) => event.startsWith("sent "));
    // The first write: each COMMIT without waiting for the disk, the last statement waiting for all of them.
    expect(sent[0]!.split(";\n").filter((text) => text === "COMMIT")).toHaveLength(3);
    expect(sent[0]).not.toMatch(/(?<!SET LOCAL synchronous_commit = off);\nCOMMIT/);
    expect(sent[0]!.endsWith(`;\n${FLUSH}`)).toBe(true);
    // It failed in its second transaction: the first's commit is flushed (with the rollback) before it is answered.
    expect(sent[1]).toBe(`sent ROLLBACK; ${FLUSH}`);
    expect(events.indexOf(sent[1]!)).toBeLessThan(events.indexOf("answered 0"));
    // The third went again in a write of its own, answered after that write (which ends with the flush) completed.
    expect(sent[2]!.endsWith(`;\n${FLUSH}`)).toBe(true);
    expect(events.indexOf(sent[2]!)).toBeLessThan(events.indexOf("answered 2"));
  });

  it("should end a write of read-only messages alone with no flush, and one with a writing message among them with it", async () => {
    const texts: string[] = [];
    const connect = pool.connect.bind(pool);
    const watched = new WeakSet<pg.PoolClient>();
    pool.connect = (async () => {
      const client = await connect();
      if (watched.has(client)) return client;
      watched.add(client);
      const query = client.query.bind(client) as (q: unknown) => unknown;
      (client as { query: unknown }).query = (q: unknown) => {
        if (typeof q !== "string") texts.push((q as { statements: Sql[] }).statements.flatMap(simpleTexts).join(";\n"));
        return query(q);
      };
      return client;
    }) as typeof pool.connect;
    const read = () => ({ statements: ["BEGIN READ ONLY", `SELECT n FROM ${table("counter")}`, "COMMIT"], fresh: [], readOnly: true });
    try {
      await Promise.all([whole.send(read), whole.send(read)]);
      await Promise.all([whole.send(read), whole.send(message("adds", 5, "read-then-write"))]);
    } finally {
      pool.connect = connect;
    }
    expect(texts).toHaveLength(2);
    expect(texts[0]).not.toContain(FLUSH);
    expect(texts[1]!.endsWith(`;\n${FLUSH}`)).toBe(true);
  });

  it("should commit every message that succeeds exactly once, and none of one that fails, whatever the mix and the writes", async () => {
    let round = 0;
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ kind: fc.constantFrom<Kind>("adds", "adds", "adds", "fails", "clashes"), counter: fc.integer({ min: 10, max: 12 }), delay: fc.nat(3) }), { minLength: 1, maxLength: 40 }),
      async (calls) => {
        const prefix = `p${round++}`;
        const before = await counters();
        // Sent over a few turns of the event loop, some together, on the one connection.
        const settled = await Promise.allSettled(calls.map(async (call, i) => {
          if (call.delay > 0) await new Promise((resolve) => setTimeout(resolve, call.delay));
          return whole.send(message(call.kind, call.counter, `${prefix}-${i}`));
        }));
        const after = await counters();
        const log = await logged();
        for (const [i, call] of calls.entries()) {
          expect(settled[i]!.status).toBe(call.kind === "adds" ? "fulfilled" : "rejected");
          expect(log.has(`${prefix}-${i}`)).toBe(call.kind === "adds");
        }
        for (const counter of [10, 11, 12]) {
          const adds = calls.filter((call) => call.kind === "adds" && call.counter === counter).length;
          expect((after.get(counter) ?? 0) - (before.get(counter) ?? 0)).toBe(adds);
        }
      },
    ), { numRuns: 25 });
  });

  // Last: they end the connection.
  const plain = (kind: Kind, id: string) => () => message(kind, 4, id)(undefined);
  const sleeping = () => ({ statements: ["BEGIN", "SELECT pg_sleep(5)", "COMMIT"], fresh: [] });
  /** Calls `end` once the write with the sleep is running; answers how each message of that write settled. */
  async function ending(ids: string[], end: () => Promise<void>): Promise<PromiseSettledResult<unknown>[]> {
    const write = Promise.allSettled([whole.send(sleeping), ...ids.map((id) => whole.send(plain("adds", id)))]);
    for (let i = 0; i < 250; i++) {
      const running = await adminQuery(url!, "SELECT 1 FROM pg_stat_activity WHERE query LIKE '%pg_sleep(5)%' AND pid <> pg_backend_pid()");
      if (running.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await end();
    return write;
  }

  it("should send again what did not run behind a statement the database ended the connection in, on a new connection", async () => {
    const resent = whole.resent;
    const settled = await ending(["ended-1", "ended-2"], async () => {
      await adminQuery(url!, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(5)%' AND pid <> pg_backend_pid()");
    });
    // The database's own error (57P01) stopped the write at the sleep: the two behind it did not run, and ran once more.
    expect(settled.map((result) => result.status)).toEqual(["rejected", "fulfilled", "fulfilled"]);
    expect((settled[0] as PromiseRejectedResult).reason).toMatchObject({ code: "57P01" });
    expect(whole.resent - resent).toBe(2);
    const log = await logged();
    expect(log.has("ended-1") && log.has("ended-2")).toBe(true);
  });

  it("should fail every message of a write whose connection itself is lost, and send none of them again", async () => {
    let held: pg.PoolClient | undefined;
    const take = (client: pg.PoolClient) => (held = client);
    pool.on("acquire", take);
    const resent = whole.resent;
    const settled = await ending(["lost-1", "lost-2"], async () => {
      // The socket goes: no SQLSTATE, and what was sent may have run or not.
      (held as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    });
    pool.off("acquire", take);
    expect(settled.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(whole.resent).toBe(resent);
    // The pool drops the connection; the next write goes on a new one.
    await whole.send(plain("adds", "after-lost"));
    expect((await logged()).has("after-lost")).toBe(true);
  });
});

/*
 * Whole transactions of many callers together on one connection
 * (grouped-commits.ts), on a PostgreSQL server: transactions sent while the
 * one connection is busy go together; one that fails fails alone, the
 * others commit once; none is answered before the log is flushed past its
 * commit. Skipped (said once by the global setup) when PostgreSQL does not
 * answer.
 */
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { FLUSH, GroupedCommits, NO_WAIT } from "../src/grouped-commits.js";
import { survivesLostConnections } from "../src/pg-database.js";
import type { Sql, WholeMessage } from "../src/sql-database.js";
import { adminQuery, dropSchema, freshSchema } from "./postgres-schema.js";

const url = inject("postgresUrl");

/** What one transaction does: adds 1 to a counter and logs its id; "fails" divides by zero after that; "clashes" logs an id taken. */
type Kind = "adds" | "fails" | "clashes";

describe.skipIf(url === null)("whole transactions grouped on one connection, on PostgreSQL", () => {
  const schema = freshSchema("grouped");
  let pool: pg.Pool;
  let whole: GroupedCommits;
  const table = (name: string) => `"${schema}".${name}`;

  beforeAll(async () => {
    await adminQuery(url!, `CREATE SCHEMA "${schema}"; CREATE TABLE ${table("counter")} (id int PRIMARY KEY, n int NOT NULL);
      CREATE TABLE ${table("log")} (id text PRIMARY KEY); INSERT INTO ${table("log")} VALUES ('taken')`);
    // One connection: whatever is sent while it is busy waits, and goes in the next group.
    pool = new pg.Pool({ connectionString: url!, max: 1, pipeline: true });
    survivesLostConnections(pool);
    whole = new GroupedCommits(pool, true);
  });
  afterAll(async () => {
    await pool.end();
    await dropSchema(url!, schema);
  });

  const sql = (text: string, ...params: unknown[]): Sql => ({ text, params });
  /** The transaction of kind `kind` for counter `counter` and log id `id`. */
  const message = (kind: Kind, counter: number, id: string): WholeMessage => ({
    statements: [
      sql("BEGIN ISOLATION LEVEL SERIALIZABLE"),
      sql(`INSERT INTO ${table("counter")} AS c VALUES ($1::int, 1) ON CONFLICT (id) DO UPDATE SET n = c.n + 1 RETURNING n`, counter),
      sql(`INSERT INTO ${table("log")} VALUES ($1::text)`, kind === "clashes" ? "taken" : id),
      ...(kind === "fails" ? [sql("SELECT 1 / 0")] : []),
      sql("COMMIT"),
    ],
  });

  const counters = async () => new Map((await adminQuery<{ id: number; n: number }>(url!, `SELECT id, n FROM ${table("counter")}`)).map((row) => [row.id, row.n]));
  const logged = async () => new Set((await adminQuery<{ id: string }>(url!, `SELECT id FROM ${table("log")}`)).map((row) => row.id));

  it("should send the transactions asked for together in one group, each answering its own rows", async () => {
    const before = (await counters()).get(1) ?? 0;
    const groups = whole.groups;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => whole.send<{ n: number }>(message("adds", 1, `together-${i}`))));
    expect(whole.groups - groups).toBe(1);
    // Each answers the counter's value as its own statement left it: 1 to 6 past what it held, in order.
    expect(answers.map((rows) => rows.flat().find((row) => "n" in row)!.n)).toEqual(Array.from({ length: 6 }, (_, i) => before + i + 1));
    expect((await counters()).get(1)).toBe(before + 6);
  });

  it("should send the transactions that came while the connection was busy together in the next group", async () => {
    const groups = whole.groups;
    // Busy for half a second: long past the 20 ms the five below are sent in, however slow the machine.
    const slow = whole.send({ statements: [sql("BEGIN"), sql("SELECT pg_sleep(0.5)"), sql("COMMIT")] });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(whole.groups - groups).toBe(1);
    const later = Array.from({ length: 5 }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 5));
      return whole.send(message("adds", 1, `later-${i}`));
    });
    await Promise.all([slow, ...later]);
    expect(whole.groups - groups).toBe(2);
  });

  it("should fail only the transaction with the failed statement, and commit the others of its group once", async () => {
    const before = (await counters()).get(2) ?? 0;
    const kinds: Kind[] = ["adds", "adds", "fails", "adds", "clashes", "adds"];
    const groups = whole.groups;
    const settled = await Promise.allSettled(kinds.map((kind, i) => whole.send(message(kind, 2, `mid-${i}`))));
    expect(settled.map((result) => result.status)).toEqual(kinds.map((kind) => (kind === "adds" ? "fulfilled" : "rejected")));
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ code: "22012" });
    expect((settled[4] as PromiseRejectedResult).reason).toMatchObject({ code: "23505" });
    expect((await counters()).get(2)).toBe(before + 4);
    expect(whole.groups - groups).toBe(1);
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

  /** Runs `fn` with every statement the pool's connections are sent pushed to `events` ("sent …", and "flushed" once FLUSH completed). */
  async function watching(events: string[], fn: () => Promise<unknown>): Promise<void> {
    const connect = pool.connect.bind(pool);
    pool.connect = (async () => {
      const client = await connect();
      const query = client.query.bind(client) as (q: pg.QueryConfig) => Promise<unknown>;
      (client as { query: unknown }).query = (q: pg.QueryConfig) => {
        events.push(`sent ${q.text}`);
        const answer = query(q);
        if (q.text === FLUSH.text) void answer.then(() => events.push("flushed"), () => undefined);
        return answer;
      };
      return client;
    }) as typeof pool.connect;
    try {
      await fn();
    } finally {
      pool.connect = connect;
    }
  }

  it("should answer no transaction before the write-ahead log is flushed past its commit, a failure in the group or not", async () => {
    const events: string[] = [];
    const kinds: Kind[] = ["adds", "fails", "adds"];
    await watching(events, () => Promise.allSettled(kinds.map((kind, i) => whole.send(message(kind, 3, `flush-${i}`)).then(() => events.push(`answered ${i}`)))));
    const sent = events.filter((event) => event.startsWith("sent ")).map((event) => event.slice(5));
    // Each COMMIT without waiting for the disk, right after NO_WAIT; FLUSH last, waiting for all of them.
    const commits = sent.flatMap((text, i) => (text === "COMMIT" ? [i] : []));
    expect(commits).toHaveLength(3);
    for (const at of commits) expect(sent[at - 1]).toBe(NO_WAIT.text);
    expect(sent.at(-1)).toBe(FLUSH.text);
    expect(events.indexOf("answered 0")).toBeGreaterThan(events.indexOf("flushed"));
    expect(events.indexOf("answered 2")).toBeGreaterThan(events.indexOf("flushed"));
  });

  it("should end a group of read-only transactions alone with no flush, and one with a writing transaction among them with it", async () => {
    const events: string[] = [];
    const read: WholeMessage = { statements: [sql("BEGIN READ ONLY"), sql(`SELECT n FROM ${table("counter")}`), sql("COMMIT")], readOnly: true };
    await watching(events, async () => {
      await Promise.all([whole.send(read), whole.send(read)]);
      events.push("between");
      await Promise.all([whole.send(read), whole.send(message("adds", 5, "read-then-write"))]);
    });
    const between = events.indexOf("between");
    expect(events.slice(0, between)).not.toContain(`sent ${FLUSH.text}`);
    expect(events.slice(between)).toContain(`sent ${FLUSH.text}`);
  });

  it("should commit every transaction that succeeds exactly once, and none of one that fails, whatever the mix and the groups", async () => {
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

  // Last: it ends the connection.
  it("should fail every transaction of a group whose connection is lost, and go on with a new connection", async () => {
    const sleeping: WholeMessage = { statements: [sql("BEGIN"), sql("SELECT pg_sleep(5)"), sql("COMMIT")] };
    const group = Promise.allSettled([whole.send(sleeping), whole.send(message("adds", 4, "lost-1")), whole.send(message("adds", 4, "lost-2"))]);
    for (let i = 0; i < 250; i++) {
      const running = await adminQuery(url!, "SELECT 1 FROM pg_stat_activity WHERE query LIKE '%pg_sleep(5)%' AND pid <> pg_backend_pid()");
      if (running.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await adminQuery(url!, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(5)%' AND pid <> pg_backend_pid()");
    expect((await group).map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(await logged()).not.toContain("lost-1");
    // The pool drops the connection; the next group goes on a new one.
    await whole.send(message("adds", 4, "after-lost"));
    expect((await logged()).has("after-lost")).toBe(true);
  });
});

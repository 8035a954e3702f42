/*
 * Cached rows (docs/storage.md, "Cached rows"): read-only transactions that
 * only get rows of `cachedReads` tables send nothing once the rows are
 * known; a write through the storage drops them at once, a write through
 * another storage on the same PostgreSQL schema (another process) when its
 * notice arrives, and copies are served only while notices can arrive.
 */
import { PGlite } from "@electric-sql/pglite";
import { defineTable } from "@playfield/core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createSqlStorage, pgDatabase, pgliteDatabase, type SqlStorage } from "../src/index.js";
import { countedDatabase, messagesOf } from "./counted-database.js";
import pg from "pg";
import { listenConfig } from "../src/pg-database.js";
import { ABSENT, RowCache } from "../src/row-cache.js";
import { adminQuery, dropSchema, freshSchema } from "./postgres-schema.js";

interface Row { id: string; n: number; text?: string }
const Cached = defineTable<Row>()({ name: "cache_rows", primaryKey: (row) => row.id, indexes: {}, cachedReads: true });
const Plain = defineTable<Row>()({ name: "cache_plain", primaryKey: (row) => row.id, indexes: {} });
const Checked = defineTable<Row>()({ name: "cache_checked", primaryKey: (row) => row.id, indexes: {}, checkedCopies: true });

const readN = (storage: SqlStorage, table: typeof Cached, id: string) =>
  storage.transact(async (tx) => (await tx.get(table, id))?.n, { readOnly: true });
const write = (storage: SqlStorage, table: typeof Cached, id: string, n: number) => storage.transact((tx) => tx.put(table, { id, n }));
/** Adds 1 to row `id`'s n, read with `read` (`get`, or `getCached`) in the transaction; answers the new n and counts its runs in `runs.n`. */
const incrementOf = (storage: SqlStorage, table: typeof Cached, read: "get" | "getCached", runs = { n: 0 }) => (id: string) => storage.transact(async (tx) => {
  runs.n++;
  const n = (await tx[read](table, id))?.n ?? 0;
  await tx.put(table, { id, n: n + 1 });
  return n + 1;
});

describe("the row cache", () => {
  it("should not keep a row read while its row was written, nor read before everything was dropped", () => {
    let now = 0;
    const cache = new RowCache(1_000, true, { rows: 10 }, () => now);
    const before = cache.reading("t", "a");
    cache.drop("t", "a");
    const after = cache.reading("t", "a");
    cache.done(before, { id: "a", n: 1 });
    cache.done(after, { id: "a", n: 2 });
    expect(cache.get("t", "a")).toBeUndefined();
    // Once no read that saw the write in flight is left, reads keep what they find again; other rows were never held up.
    const other = cache.reading("t", "b");
    cache.drop("t", "a");
    cache.done(other, { id: "b", n: 1 });
    expect(cache.get("t", "b")).toEqual({ id: "b", n: 1 });
    cache.done(cache.reading("t", "a"), { id: "a", n: 3 });
    expect(cache.get("t", "a")).toEqual({ id: "a", n: 3 });
    const stale = cache.reading("t", "c");
    cache.dropAll();
    cache.done(stale, { id: "c", n: 1 });
    expect(cache.get("t", "c")).toBeUndefined();
    now = 1_001;
    expect(cache.get("t", "a")).toBeUndefined();
  });

  it("should not keep a read started after a copy was dropped since its transaction began (its snapshot may be older)", () => {
    const cache = new RowCache(1_000, true);
    const since = cache.drops;
    cache.done(cache.reading("t", "a", since), { id: "a" });
    expect(cache.get("t", "a")).toEqual({ id: "a" });
    // Another row's write: the transaction's snapshot may now miss writes its later reads would otherwise keep.
    cache.drop("t", "other");
    cache.done(cache.reading("t", "b", since), { id: "b" });
    expect(cache.get("t", "b")).toBeUndefined();
    // A transaction begun after it keeps what it reads.
    cache.done(cache.reading("t", "b", cache.drops), { id: "b" });
    expect(cache.get("t", "b")).toEqual({ id: "b" });
  });

  it("should keep a row's absence as a copy, dropped by a write like any copy", () => {
    const cache = new RowCache(1_000, true);
    cache.done(cache.reading("t", "gone"), ABSENT);
    expect(cache.get("t", "gone")).toBe(ABSENT);
    cache.drop("t", "gone");
    expect(cache.get("t", "gone")).toBeUndefined();
    // A failed read keeps nothing.
    cache.done(cache.reading("t", "failed"), undefined);
    expect(cache.get("t", "failed")).toBeUndefined();
  });

  it("should keep no more rows than its bound, dropping the oldest", () => {
    const cache = new RowCache(1_000, true, { rows: 2 });
    for (const id of ["a", "b", "c"]) cache.done(cache.reading("t", id), { id });
    expect(["a", "b", "c"].map((id) => cache.get("t", id) !== undefined)).toEqual([false, true, true]);
  });

  it("should keep no copy of a row whose stored text is over the bound, and no more text in all than its bound, dropping the oldest", () => {
    const cache = new RowCache(1_000, true, { chars: 100, rowChars: 60 });
    cache.done(cache.reading("t", "big"), { id: "big" }, "x".repeat(61));
    expect(cache.get("t", "big")).toBeUndefined();
    expect(cache.size).toBe(0);
    for (const id of ["a", "b", "c"]) cache.done(cache.reading("t", id), { id }, "x".repeat(40));
    // a + b + c = 120 > 100: a, the oldest, went.
    expect(["a", "b", "c"].map((id) => cache.get("t", id) !== undefined)).toEqual([false, true, true]);
    expect(cache.size).toBe(80);
    // A copy kept again replaces its old one; a dropped copy gives its text back.
    cache.done(cache.reading("t", "b"), { id: "b" }, "x".repeat(10));
    expect(cache.size).toBe(50);
    cache.drop("t", "c");
    expect(cache.size).toBe(10);
    cache.done(cache.reading("t", "d"), { id: "d" }, "x".repeat(60));
    expect(["b", "d"].map((id) => cache.get("t", id) !== undefined)).toEqual([true, true]);
    cache.dropAll();
    expect(cache.size).toBe(0);
  });

  it("should serve nothing while not serving", () => {
    const cache = new RowCache(1_000, false);
    cache.done(cache.reading("t", "a"), { id: "a" });
    expect(cache.get("t", "a")).toBeUndefined();
  });
});

describe("the listening connection's settings", () => {
  it("should keep the pool's password, which the pool hides from its options' keys", async () => {
    const pool = new pg.Pool({ host: "127.0.0.1", user: "someone", password: "s3cret", database: "db" });
    try {
      expect(listenConfig(pool)).toMatchObject({ host: "127.0.0.1", user: "someone", password: "s3cret", database: "db", application_name: "playfield-listen" });
    } finally {
      await pool.end();
    }
  });
});

describe("cached rows on PGlite (one process)", () => {
  const messages: string[] = [];
  const pglite = new PGlite();
  const storage = createSqlStorage(countedDatabase(pgliteDatabase(pglite), messages), { rowCacheMs: 60_000 });
  beforeAll(() => storage.init([Cached, Plain, Checked]), 120_000);
  afterAll(() => storage.close());

  it("should answer a read-only transaction's gets of cached rows with no message once they were read", async () => {
    // Loaded (not written by a transaction, which would keep them as it wrote them): no copy yet.
    await storage.load([Cached], (put) => put(Cached, [{ id: "a", n: 1 }, { id: "b", n: 2 }]));
    const both = () => storage.transact((tx) => Promise.all([tx.get(Cached, "a"), tx.get(Cached, "b")]), { readOnly: true });
    expect(await messagesOf(messages, both)).toHaveLength(1);
    let rows: unknown;
    expect(await messagesOf(messages, async () => { rows = await both(); })).toEqual([]);
    expect(rows).toEqual([{ id: "a", n: 1 }, { id: "b", n: 2 }]);
  });

  it("should keep no copy of a row whose stored text is over 64 Ki characters (datastore values run to 4 MB)", async () => {
    await storage.transact((tx) => Promise.all([tx.put(Cached, { id: "long", n: 1, text: "x".repeat(64 * 1024) }), tx.put(Cached, { id: "short", n: 1, text: "x".repeat(60_000) })]));
    const read = (id: string) => storage.transact(async (tx) => (await tx.get(Cached, id))?.text?.length, { readOnly: true });
    for (let i = 0; i < 2; i++) expect(await messagesOf(messages, async () => expect(await read("long")).toBe(64 * 1024))).toHaveLength(1);
    await read("short");
    expect(await messagesOf(messages, async () => expect(await read("short")).toBe(60_000))).toEqual([]);
  });

  it("should keep a row this storage wrote as the write committed it, and nothing of a write that rolled back", async () => {
    await write(storage, Cached, "w", 1);
    await write(storage, Cached, "w", 2);
    expect(await messagesOf(messages, async () => expect(await readN(storage, Cached, "w")).toBe(2))).toEqual([]);
    // A write that rolls back changes nothing; its copy goes all the same (one that did not commit keeps nothing).
    await storage.transact(async (tx) => {
      await tx.put(Cached, { id: "w", n: 3 });
      throw new Error("changed my mind");
    }).catch(() => undefined);
    expect(await messagesOf(messages, async () => expect(await readN(storage, Cached, "w")).toBe(2))).toHaveLength(1);
    await storage.transact((tx) => tx.delete(Cached, "w"));
    expect(await messagesOf(messages, async () => expect(await readN(storage, Cached, "w")).toBeUndefined())).toEqual([]);
  });

  it("should keep a row found missing as missing until it is written", async () => {
    expect(await messagesOf(messages, async () => expect(await readN(storage, Cached, "later")).toBeUndefined())).toHaveLength(1);
    expect(await messagesOf(messages, async () => expect(await readN(storage, Cached, "later")).toBeUndefined())).toEqual([]);
    await write(storage, Cached, "later", 1);
    expect(await messagesOf(messages, async () => expect(await readN(storage, Cached, "later")).toBe(1))).toEqual([]);
    await storage.transact((tx) => tx.delete(Cached, "later"));
    expect(await readN(storage, Cached, "later")).toBeUndefined();
    expect(await messagesOf(messages, async () => expect(await readN(storage, Cached, "later")).toBeUndefined())).toEqual([]);
  });

  it("should read on the database whatever a copy cannot answer: a row not read yet, other tables, queries", async () => {
    await write(storage, Cached, "m", 1);
    await storage.transact((tx) => tx.put(Plain, { id: "p", n: 1 }));
    const mixed = () => storage.transact((tx) => Promise.all([tx.get(Cached, "m"), tx.get(Plain, "p")]), { readOnly: true });
    expect(await messagesOf(messages, mixed)).toHaveLength(1);
    expect(await messagesOf(messages, () => readN(storage, Cached, "nobody"))).toHaveLength(1);
    expect(await messagesOf(messages, () => storage.transact((tx) => tx.query(Cached, "primary"), { readOnly: true }))).toHaveLength(1);
  });

  it("should read on the database when the function caught the miss and went on", async () => {
    await write(storage, Cached, "c", 5);
    await readN(storage, Cached, "c");
    const answer = await storage.transact(async (tx) => {
      const plain = await tx.get(Plain, "none").catch(() => "caught");
      return [plain, (await tx.get(Cached, "c"))?.n];
    }, { readOnly: true });
    expect(answer).toEqual([undefined, 5]);
  });

  it("should answer a writing transaction's getCached from the copy with no statement, and read in it a row with no copy, copied as missing, or written by it", async () => {
    const rowReads = (sent: string[]) => sent.flatMap((text) => text.split("; ")).filter((text) => text.startsWith('SELECT data FROM "public"."cache_rows"')).length;
    // A writing transaction: it also puts a row of another table.
    const getCached = (id: string) => storage.transact(async (tx) => {
      const n = (await tx.getCached(Cached, id))?.n;
      await tx.put(Plain, { id: "last", n: n ?? -1 });
      return n;
    });
    const readsOf = async (id: string, expected: number | undefined) => rowReads(await messagesOf(messages, async () => expect(await getCached(id)).toBe(expected)));
    await storage.load([Cached], (put) => put(Cached, [{ id: "g", n: 1 }]));
    // No copy (the load dropped them all): read in the transaction, and kept; then taken from the copy.
    expect(await readsOf("g", 1)).toBe(1);
    expect(await readsOf("g", 1)).toBe(0);
    expect(await readsOf("g", 1)).toBe(0);
    // Kept as written.
    await write(storage, Cached, "g", 2);
    expect(await readsOf("g", 2)).toBe(0);
    // Copied as missing: read in the transaction every time, as a row created when missing must be.
    expect(await readN(storage, Cached, "none")).toBeUndefined();
    expect(await readsOf("none", undefined)).toBe(1);
    expect(await readsOf("none", undefined)).toBe(1);
    // Its own write: read in the transaction; what it read of it is not kept.
    const own = await messagesOf(messages, async () => expect(await storage.transact(async (tx) => {
      await tx.put(Cached, { id: "g", n: 3 });
      return (await tx.getCached(Cached, "g"))?.n;
    })).toBe(3));
    expect(rowReads(own)).toBe(1);
    expect(await readsOf("g", 3)).toBe(0);
    // A read-only transaction takes the copy a writing one kept.
    expect(await messagesOf(messages, async () => expect(await readN(storage, Cached, "g")).toBe(3))).toEqual([]);
  });

  it("should take a writing transaction's copies with a check in its one message, and run it again reading when a copy is stale", async () => {
    await write(storage, Cached, "k", 1);
    await write(storage, Cached, "gone", 1);
    await storage.transact((tx) => tx.delete(Cached, "gone"));
    const runs = { n: 0 };
    const increment = incrementOf(storage, Cached, "get", runs);
    // Warm: BEGIN, the check and the write as one statement, and COMMIT in one message, and no read.
    const sent = await messagesOf(messages, async () => expect(await increment("k")).toBe(2));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^BEGIN ISOLATION LEVEL SERIALIZABLE; WITH written AS \(UPDATE "public"."cache_rows" SET data = .* WHERE id = .* AND data = .* RETURNING 1\) SELECT 1 \/ count\(\*\)::int AS ok FROM written; COMMIT$/);
    // The copy of an absence is checked too.
    expect(await messagesOf(messages, async () => expect(await increment("gone")).toBe(1))).toHaveLength(1);
    // Changed behind the storage's back: the checks fail, the copies go, and the runs again read what the rows hold.
    await pglite.exec(`UPDATE public.cache_rows SET data = '{"id":"k","n":10}' WHERE data LIKE '%"id":"k"%'`);
    await pglite.exec(`DELETE FROM public.cache_rows WHERE data LIKE '%"id":"gone"%'`);
    runs.n = 0;
    expect(await increment("k")).toBe(11);
    expect(runs.n).toBe(2);
    runs.n = 0;
    expect(await increment("gone")).toBe(1);
    expect(runs.n).toBe(2);
    expect((await pglite.query<{ data: string }>(`SELECT data FROM public.cache_rows WHERE data LIKE '%"id":"k"%' OR data LIKE '%"id":"gone"%' ORDER BY data`)).rows.map((row) => JSON.parse(row.data)))
      .toEqual([{ id: "gone", n: 1 }, { id: "k", n: 11 }]);
    // getMany takes copies as get does, and reads the rows with none in one statement.
    const many = await messagesOf(messages, async () => expect(await storage.transact(async (tx) => {
      const rows = await tx.getMany(Cached, ["k", "gone", "fresh"]);
      await tx.put(Plain, { id: "q", n: 8 });
      return rows.map((row) => row?.n);
    })).toEqual([11, 1, undefined]));
    expect(many).toHaveLength(2);
    expect(many[0]).toMatch(/SELECT encode\(id, 'hex'\) AS h, data FROM "public"."cache_rows" WHERE id IN \('[^']*'::bytea\)/);
    // The checks go with the first message that goes.
    expect(many[0]!.match(/SELECT 1 \/ /g)).toHaveLength(2);
  });

  it("should serve a checked-copies table's getCached from the copy with no check, and check the copy when the transaction writes the row", async () => {
    await write(storage, Checked, "u", 1);
    // Read and not written: the copy as it is, nothing sent for it (the put of another table is the one message).
    const onlyRead = await messagesOf(messages, async () => expect(await storage.transact(async (tx) => {
      const n = (await tx.getCached(Checked, "u"))?.n;
      await tx.put(Plain, { id: "seen", n: n ?? -1 });
      return n;
    })).toBe(1));
    expect(onlyRead).toHaveLength(1);
    expect(onlyRead[0]).not.toContain("cache_checked");
    const runs = { n: 0 };
    const increment = incrementOf(storage, Checked, "getCached", runs);
    // Written: the write itself checks the copy (one statement), in the transaction's one message.
    const sent = await messagesOf(messages, async () => expect(await increment("u")).toBe(2));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^BEGIN ISOLATION LEVEL SERIALIZABLE; WITH written AS \(UPDATE "public"."cache_checked" SET data = .* AND data = .* RETURNING 1\) SELECT 1 \/ count\(\*\)::int AS ok FROM written; COMMIT$/);
    // Changed behind the storage's back: the write finds the copy stale, the copy goes, and the run again reads the row.
    await pglite.exec(`UPDATE public.cache_checked SET data = '{"id":"u","n":10}' WHERE data LIKE '%"id":"u"%'`);
    runs.n = 0;
    expect(await increment("u")).toBe(11);
    expect(runs.n).toBe(2);
    // Deleted after a getCached: checked the same way (the stale copy's run does not commit; the run again reads the row).
    await pglite.exec(`UPDATE public.cache_checked SET data = '{"id":"u","n":20}' WHERE data LIKE '%"id":"u"%'`);
    runs.n = 0;
    const deletedAt = await storage.transact(async (tx) => {
      runs.n++;
      const n = (await tx.getCached(Checked, "u"))?.n;
      await tx.delete(Checked, "u");
      return n;
    });
    expect(deletedAt).toBe(20);
    expect(runs.n).toBe(2);
    expect(await storage.transact((tx) => tx.get(Checked, "u"))).toBeUndefined();
    // A row with no copy is read in the transaction, as `get` reads it.
    expect(await increment("fresh")).toBe(1);
    expect(await increment("fresh")).toBe(2);
  });

  it("should see a write made outside the storage once the copy is older than rowCacheMs", async () => {
    const outside = new PGlite();
    const short = createSqlStorage(pgliteDatabase(outside), { rowCacheMs: 50 });
    try {
      await write(short, Cached, "x", 1);
      expect(await readN(short, Cached, "x")).toBe(1);
      await outside.exec(`UPDATE public.cache_rows SET data = '{"id":"x","n":9}'`);
      expect(await readN(short, Cached, "x")).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await readN(short, Cached, "x")).toBe(9);
    } finally {
      await short.close();
    }
  });

  it("should keep no copy when rowCacheMs is 0", async () => {
    const none: string[] = [];
    const off = createSqlStorage(countedDatabase(pgliteDatabase(new PGlite()), none), { rowCacheMs: 0 });
    try {
      await write(off, Cached, "o", 1);
      await readN(off, Cached, "o");
      expect(await messagesOf(none, () => readN(off, Cached, "o"))).toHaveLength(1);
    } finally {
      await off.close();
    }
  });
});

const url = inject("postgresUrl");

describe.skipIf(url === null)("cached rows on PostgreSQL, two storages on one schema (two processes)", () => {
  const schema = freshSchema("row_cache");
  let a: SqlStorage, b: SqlStorage;
  const sent = new Map<SqlStorage, string[]>();
  /** A storage as another process would open it: a pool of its own, its messages counted, its listening connection named after it. */
  const open = (name: string) => {
    const messages: string[] = [];
    const listenUrl = `${url!}${url!.includes("?") ? "&" : "?"}application_name=${schema}_${name}`;
    // Copies kept for a minute: only a notice can make one see the other's writes within the tests' time.
    const storage = createSqlStorage(countedDatabase(pgDatabase({ connectionString: url!, max: 2 }, { listenUrl }), messages), { schema, rowCacheMs: 60_000 });
    sent.set(storage, messages);
    return storage;
  };
  beforeAll(async () => {
    a = open("a");
    b = open("b");
    await a.init([Cached]);
    await b.init([Cached]);
    await listening(a);
    await listening(b);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await dropSchema(url!, schema);
  });

  /** Waits until `storage` serves copies: a row read twice is answered the second time without a message. */
  async function listening(storage: SqlStorage): Promise<void> {
    await write(storage, Cached, "probe", 0);
    await copied(storage, "probe");
  }
  /** Waits until `storage` answers row `id` from its copy (a notice of the write that made it may drop the first copy). */
  async function copied(storage: SqlStorage, id: string): Promise<void> {
    for (let i = 0; i < 100; i++) {
      await readN(storage, Cached, id);
      if ((await messagesOf(sent.get(storage)!, () => readN(storage, Cached, id))).length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`the storage never answered ${id} from a copy`);
  }
  /** Polls `read` until it answers `expected`; answers how long that took. */
  async function within(ms: number, read: () => Promise<unknown>, expected: unknown): Promise<number> {
    const start = performance.now();
    for (;;) {
      if ((await read()) === expected) return performance.now() - start;
      if (performance.now() - start > ms) throw new Error(`not seen within ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  it("should drop a copy when another storage on the schema writes its row, long before rowCacheMs", async () => {
    await write(b, Cached, "shared", 1);
    await copied(a, "shared");
    expect(await readN(a, Cached, "shared")).toBe(1);
    await write(b, Cached, "shared", 2);
    await within(2_000, () => readN(a, Cached, "shared"), 2);
    await b.transact((tx) => tx.delete(Cached, "shared"));
    await within(2_000, () => readN(a, Cached, "shared"), undefined);
  });

  it("should keep no copy of what a transaction read after another storage's write was heard of since it began (its snapshot is older)", async () => {
    await write(a, Cached, "snapped", 1);
    await write(a, Cached, "flag", 1);
    await copied(a, "flag");
    const stale = await a.transact(async (tx) => {
      // The transaction's snapshot is taken here, before the other storage's write.
      await tx.get(Cached, "other");
      await b.transact(async (btx) => {
        await btx.put(Cached, { id: "snapped", n: 2 });
        await btx.put(Cached, { id: "flag", n: 2 });
      });
      // Heard of: the notice that drops "flag" dropped "snapped" (of which `a` has no copy) with it.
      await within(2_000, () => readN(a, Cached, "flag"), 2);
      return (await tx.getCached(Cached, "snapped"))?.n;
    });
    expect(stale).toBe(1);
    expect(await readN(a, Cached, "snapped")).toBe(2);
    expect(await a.transact(async (tx) => (await tx.getCached(Cached, "snapped"))?.n)).toBe(2);
  });

  it("should answer a writing transaction's getCached from the copy until another storage's write of the row is heard of", async () => {
    await write(b, Cached, "seen", 1);
    await copied(a, "seen");
    const getCached = () => a.transact(async (tx) => (await tx.getCached(Cached, "seen"))?.n);
    expect(await messagesOf(sent.get(a)!, async () => expect(await getCached()).toBe(1))).toEqual([]);
    await write(b, Cached, "seen", 2);
    await within(2_000, getCached, 2);
    await b.transact((tx) => tx.delete(Cached, "seen"));
    await within(2_000, getCached, undefined);
  });

  it("should lose no write when both storages take checked copies of one row and write it, in turn and at once", async () => {
    const increment = (storage: SqlStorage) => incrementOf(storage, Cached, "get")("counter");
    // In turn: each takes its copy, made old by the other's write (checked, found changed, read again unless the notice came first).
    for (let i = 0; i < 10; i++) await increment(i % 2 === 0 ? a : b);
    // At once: copies, conflicts and retries mixed.
    await Promise.all(Array.from({ length: 40 }, (_, i) => increment(i % 2 === 0 ? a : b)));
    expect(await a.transact(async (tx) => (await tx.query(Cached, "primary", { equals: ["counter"] }))[0]?.n)).toBe(50);
  });

  it("should lose no write when both storages write a row their getCached served from copies, in turn and at once", async () => {
    await a.init([Checked]);
    await b.init([Checked]);
    const increment = (storage: SqlStorage) => incrementOf(storage, Checked, "getCached")("tally");
    for (let i = 0; i < 10; i++) await increment(i % 2 === 0 ? a : b);
    await Promise.all(Array.from({ length: 40 }, (_, i) => increment(i % 2 === 0 ? a : b)));
    expect(await a.transact(async (tx) => (await tx.query(Checked, "primary", { equals: ["tally"] }))[0]?.n)).toBe(50);
  });

  it("should drop a row known missing when another storage on the schema writes it", async () => {
    expect(await readN(a, Cached, "born")).toBeUndefined();
    expect(await messagesOf(sent.get(a)!, () => readN(a, Cached, "born"))).toEqual([]);
    await write(b, Cached, "born", 1);
    await within(2_000, () => readN(a, Cached, "born"), 1);
  });

  it("should send its notices in its writes of whole transactions, not on its listening connection, and keep its copies when its own come back", async () => {
    await write(a, Cached, "mine", 1);
    await copied(b, "mine");
    await write(a, Cached, "mine", 2);
    // The other storage hears of the write.
    await within(2_000, () => readN(b, Cached, "mine"), 2);
    // The notice reached this storage's listener too, sent by a connection of its pool: its copy stays.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await messagesOf(sent.get(a)!, async () => expect(await readN(a, Cached, "mine")).toBe(2))).toEqual([]);
    const listener = await adminQuery<{ query: string }>(url!, `SELECT query FROM pg_stat_activity WHERE application_name = '${schema}_a'`);
    expect(listener).toHaveLength(1);
    expect(listener[0]!.query).toMatch(/^LISTEN /);
  });

  it("should read on the database while its notices cannot arrive, and serve copies again once they can", async () => {
    await write(b, Cached, "lost", 1);
    await copied(a, "lost");
    // End the listening connection of `a` only.
    const listeners = await adminQuery<{ pid: number }>(url!, `SELECT pid FROM pg_stat_activity WHERE application_name = '${schema}_a'`);
    expect(listeners).toHaveLength(1);
    await adminQuery(url!, `SELECT pg_terminate_backend(${listeners[0]!.pid})`);
    // Whichever of the two lost its notices, neither may answer from a copy the other's write made old.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await write(b, Cached, "lost", 2);
    await write(a, Cached, "lost2", 2);
    expect(await readN(a, Cached, "lost")).toBe(2);
    expect(await readN(b, Cached, "lost2")).toBe(2);
    await listening(a);
    await listening(b);
  });

  it("should drop every copy, in both, when one restores a snapshot", async () => {
    await write(a, Cached, "snap", 1);
    const snapshot = await a.snapshot!();
    await write(a, Cached, "snap", 2);
    await copied(b, "snap");
    expect(await readN(b, Cached, "snap")).toBe(2);
    await a.restore!(snapshot);
    expect(await readN(a, Cached, "snap")).toBe(1);
    await within(2_000, () => readN(b, Cached, "snap"), 1);
  });
});

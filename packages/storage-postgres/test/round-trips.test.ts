/*
 * How many round trips a transaction makes (docs/storage.md, "Isolation and
 * retries"): each costs the server far more than the statements in it, so
 * the counts are part of the adapter's behaviour. On PGlite in memory, with
 * every message to the database counted.
 */
import { PGlite } from "@electric-sql/pglite";
import { defineTable, transactAfterReads, UniqueViolation } from "@playfield/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSqlStorage, pgliteDatabase } from "../src/index.js";
import { countedDatabase, messagesOf } from "./counted-database.js";

interface Row { id: string; n: number; tag: string }
const Plain = defineTable<Row>()({ name: "trips_plain", primaryKey: (row) => row.id, indexes: {} });
/** A row with no tag is left out of the unique index (as an order without a requestId). */
const Unique = defineTable<Row>()({ name: "trips_unique", primaryKey: (row) => row.id, indexes: { byTag: { key: (row) => (row.tag ? [row.tag] : null), unique: true } } });

const messages: string[] = [];
const pglite = new PGlite();
const storage = createSqlStorage(countedDatabase(pgliteDatabase(pglite), messages));
/** The messages `fn` makes the storage send. */
const tripsOf = (fn: () => Promise<unknown>) => messagesOf(messages, fn);

beforeAll(async () => {
  await storage.init([Plain, Unique]);
  await storage.transact(async (tx) => {
    for (const id of ["a", "b", "c"]) await tx.put(Plain, { id, n: 1, tag: id });
  });
}, 120_000);
afterAll(() => storage.close());

describe("round trips per transaction", () => {
  it("should read and commit a read-only transaction's reads asked for together in one message", async () => {
    let rows: (Row | undefined)[] = [];
    const trips = await tripsOf(async () => {
      rows = await storage.transact((tx) => Promise.all([tx.get(Plain, "a"), tx.get(Plain, "b"), tx.get(Plain, "zz")]), { readOnly: true });
    });
    expect(rows.map((row) => row?.id)).toEqual(["a", "b", undefined]);
    expect(trips).toHaveLength(1);
    expect(trips[0]).toMatch(/^BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY;.*; COMMIT$/s);
  });

  it("should run a read-only transaction that reads again in a transaction of its own, with the same answers", async () => {
    let answer: [number, number] = [0, 0];
    const trips = await tripsOf(async () => {
      answer = await storage.transact(async (tx) => {
        const a = await tx.get(Plain, "a");
        const b = await tx.get(Plain, "b");
        return [a!.n, b!.n];
      }, { readOnly: true });
    });
    expect(answer).toEqual([1, 1]);
    // The first read with its COMMIT, given up; then BEGIN with the first read, the second, COMMIT.
    expect(trips).toHaveLength(4);
    expect(trips.at(-1)).toBe("COMMIT");
    // The second read went alone, as a simple query with its key written in: one message, where bound parameters make five.
    expect(trips[2]).toMatch(/^SELECT data FROM .* WHERE id = '\\x[0-9a-f]+'::bytea$/);
  });

  it("should send a put that answers nothing with the next statement, and the last with COMMIT", async () => {
    const trips = await tripsOf(() => storage.transact(async (tx) => {
      const a = await tx.get(Plain, "a");
      await tx.put(Plain, { ...a!, n: a!.n + 1 });
      const b = await tx.get(Plain, "b");
      await tx.put(Plain, { ...b!, n: b!.n + 1 });
    }));
    expect(trips).toHaveLength(3);
    expect(trips[1]).toMatch(/^INSERT .*; SELECT /s);
    expect(trips[2]).toMatch(/^INSERT .*; COMMIT$/s);
    const after = await storage.transact((tx) => Promise.all([tx.get(Plain, "a"), tx.get(Plain, "b")]), { readOnly: true });
    expect(after.map((row) => row!.n)).toEqual([2, 2]);
  });

  it("should wait for a put that may clash on a unique key, and keep the transaction usable after the clash", async () => {
    await storage.transact((tx) => tx.put(Unique, { id: "u1", n: 0, tag: "taken" }));
    let clashed = false;
    const trips = await tripsOf(() => storage.transact(async (tx) => {
      await tx.put(Unique, { id: "u2", n: 0, tag: "taken" }).catch(() => { clashed = true; });
      await tx.put(Unique, { id: "u2", n: 0, tag: "free" });
    }));
    expect(clashed).toBe(true);
    expect(trips).toHaveLength(3);
    const stored = await storage.transact((tx) => tx.get(Unique, "u2"), { readOnly: true });
    expect(stored?.tag).toBe("free");
  });

  it("should send the reads before a transaction in its first message, in a read-only snapshot of their own", async () => {
    await storage.transact((tx) => Promise.all([tx.put(Plain, { id: "sum", n: 0, tag: "sum" }), tx.put(Plain, { id: "x", n: 2, tag: "x" }), tx.put(Plain, { id: "y", n: 3, tag: "y" })]));
    let seen: [number, number] = [0, 0];
    const trips = await tripsOf(async () => {
      seen = await transactAfterReads(storage, (tx) => Promise.all([tx.get(Plain, "x"), tx.get(Plain, "y")]), async (tx, read) => {
        const sum = await tx.get(Plain, "sum");
        const [x, y] = await read;
        await tx.put(Plain, { ...sum!, n: x!.n + y!.n });
        return [x!.n, y!.n];
      });
    });
    expect(seen).toEqual([2, 3]);
    expect((await storage.transact((tx) => tx.get(Plain, "sum"), { readOnly: true }))!.n).toBe(5);
    expect(trips).toHaveLength(2);
    expect(trips[0]).toMatch(/^BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT .*; SELECT .*; COMMIT; BEGIN ISOLATION LEVEL SERIALIZABLE; SELECT [^;]*$/s);
    expect(trips[1]).toMatch(/^INSERT .*; COMMIT$/s);
    // A function that asks for nothing gets the reads all the same.
    const quiet = await tripsOf(async () => {
      expect(await transactAfterReads(storage, (tx) => tx.get(Plain, "y"), async (_tx, read) => (await read)!.n)).toBe(3);
    });
    expect(quiet).toHaveLength(2);
  });

  it("should refuse reads before a transaction asked for after its first message went", async () => {
    await expect(transactAfterReads(storage, async (tx) => {
      await tx.get(Plain, "b");
      return tx.get(Plain, "c");
    }, async (tx, read) => {
      await tx.get(Plain, "a");
      return read;
    })).rejects.toThrow(/must all be asked for at once/);
  });

  it("should not wait for a put whose unique key the transaction looked up and found free, and wait for a second put of that key", async () => {
    let clashed: unknown;
    const trips = await tripsOf(() => storage.transact(async (tx) => {
      expect(await tx.query(Unique, "byTag", { equals: ["looked-up"] })).toEqual([]);
      await tx.put(Unique, { id: "f1", n: 0, tag: "looked-up" });
      // Free for one put only: this one is checked, and clashes with the first.
      await tx.put(Unique, { id: "f2", n: 0, tag: "looked-up" }).catch((error: unknown) => { clashed = error; });
    }));
    expect(clashed).toBeInstanceOf(UniqueViolation);
    // The lookup; the first put, unchecked, with the second (checked: it waits for its answer); COMMIT.
    expect(trips).toHaveLength(3);
    expect(trips[1]).toMatch(/^INSERT [^;]*"f1"[^;]*; WITH clash .*"f2"/s);
    const stored = await storage.transact((tx) => Promise.all([tx.get(Unique, "f1"), tx.get(Unique, "f2")]), { readOnly: true });
    expect(stored.map((row) => row?.tag)).toEqual(["looked-up", undefined]);
  });

  it("should write a put whose unique keys are all null as the upsert alone, unchecked and not waited for", async () => {
    const trips = await tripsOf(() => storage.transact(async (tx) => {
      await tx.put(Unique, { id: "untagged-1", n: 0, tag: "" });
      await tx.put(Unique, { id: "untagged-2", n: 0, tag: "" });
    }));
    expect(trips).toEqual([expect.stringMatching(/^BEGIN ISOLATION LEVEL SERIALIZABLE; INSERT [^;]*"untagged-1"[^;]*; INSERT [^;]*"untagged-2"[^;]*; COMMIT$/s)]);
    const stored = await storage.transact((tx) => tx.getMany(Unique, ["untagged-1", "untagged-2"]), { readOnly: true });
    expect(stored.map((row) => row?.id)).toEqual(["untagged-1", "untagged-2"]);
  });

  it("should roll back deferred puts with the transaction when its function throws", async () => {
    const trips = await tripsOf(() => storage.transact(async (tx) => {
      await tx.put(Plain, { id: "gone", n: 1, tag: "gone" });
      throw new Error("changed my mind");
    }).catch(() => undefined));
    // Nothing reached the database: the put waited for a next message that never came.
    expect(trips).toEqual([]);
    expect(await storage.transact((tx) => tx.get(Plain, "gone"), { readOnly: true })).toBeUndefined();
  });
});

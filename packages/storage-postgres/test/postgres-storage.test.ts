/*
 * The storage conformance suite over a PostgreSQL server, in a schema of its
 * own made for this run and dropped after it, so that runs never collide.
 * Skipped (said once by the global setup) when PostgreSQL does not answer.
 */
import { defineTable } from "@playfield/core";
import { storageContract } from "@playfield/storage-contract";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage, type SqlStorage } from "../src/index.js";
import { dropSchema, freshSchema } from "./postgres-schema.js";

const url = inject("postgresUrl");

describe.skipIf(url === null)("on PostgreSQL", () => {
  const schema = freshSchema("contract");
  let storage: SqlStorage;
  beforeAll(() => {
    // Buckets of 32 entries: the contract's counted tables then split and merge their counts.
    storage = createPostgresStorage({ url: url!, schema, countedBucketRows: 32 });
  });
  afterAll(async () => {
    await storage.close();
    await dropSchema(url!, schema);
  });

  storageContract("postgres", () => storage, { numRuns: 15 });
});

describe.skipIf(url === null)("retries on PostgreSQL", () => {
  const schema = freshSchema("retries");
  let storage: SqlStorage;
  beforeAll(() => {
    storage = createPostgresStorage({ url: url!, schema });
  });
  afterAll(async () => {
    await storage.close();
    await dropSchema(url!, schema);
  });

  it("should count the runs it made again after serialization failures", async () => {
    const Counters = defineTable<{ id: string; n: number }>()({ name: "counters", primaryKey: (row) => row.id, indexes: {} });
    await storage.transact((tx) => tx.put(Counters, { id: "hot", n: 0 }));
    const before = storage.retries;
    // Writers that all read the row, wait, then write it: SERIALIZABLE lets one commit per round.
    await Promise.all(Array.from({ length: 8 }, () => storage.transact(async (tx) => {
      const row = (await tx.get(Counters, "hot"))!;
      await new Promise((resolve) => setTimeout(resolve, 5));
      await tx.put(Counters, { ...row, n: row.n + 1 });
    })));
    expect(await storage.transact((tx) => tx.get(Counters, "hot"))).toEqual({ id: "hot", n: 8 });
    expect(storage.retries - before).toBeGreaterThan(0);
    // What metrics read (docs/operators.md): the same count, and the pool (node-postgres' default of 10 at most).
    const stats = storage.stats!();
    expect(stats.retries).toBe(storage.retries);
    expect(stats.pool).toMatchObject({ max: 10, waiting: 0 });
    expect(stats.pool!.open).toBeGreaterThanOrEqual(stats.pool!.idle);
    expect(stats.pool!.open).toBeGreaterThan(0);
  });

  it("should run again a transaction whose unique key, found free, another took before its put went with COMMIT", async () => {
    const Claims = defineTable<{ id: string; tag: string }>()({ name: "claims", primaryKey: (row) => row.id, indexes: { byTag: { key: (row) => [row.tag], unique: true } } });
    await storage.init([Claims]);
    let runs = 0;
    const outcome = await storage.transact(async (tx) => {
      runs++;
      const [taken] = await tx.query(Claims, "byTag", { equals: ["raced"] });
      if (taken) return `taken by ${taken.id}`;
      // Another transaction takes the key after this one looked: the put, not waited for, meets it at COMMIT.
      if (runs === 1) await storage.transact((other) => other.put(Claims, { id: "other", tag: "raced" }));
      await tx.put(Claims, { id: "mine", tag: "raced" });
      return "mine";
    });
    expect(outcome).toBe("taken by other");
    expect(runs).toBe(2);
    expect(await storage.transact((tx) => tx.get(Claims, "mine"))).toBeUndefined();
  });
});

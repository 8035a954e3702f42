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
  });
});

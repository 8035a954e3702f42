/*
 * The storage conformance suite over a PostgreSQL server, in a schema of its
 * own made for this run and dropped after it, so that runs never collide.
 * Skipped (said once by the global setup) when PostgreSQL does not answer.
 */
import { storageContract } from "@playfield/storage-contract";
import { afterAll, beforeAll, describe, inject } from "vitest";
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

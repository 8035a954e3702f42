/*
 * The two-server suite on PostgreSQL: the two servers on two storages (two
 * connection pools, as two processes have) over one schema made for this
 * run, emptied before each test and dropped after the file. Skipped (said
 * once by the global setup) when PostgreSQL does not answer; in CI it must.
 */
import { afterAll, beforeAll, describe, inject } from "vitest";
import { tables } from "@playfield/core";
import { createPostgresStorage, type SqlStorage } from "@playfield/storage-postgres";
import { dropSchema, freshSchema } from "../../../storage-postgres/test/postgres-schema.js";
import { sharedStateSuite } from "../shared-state-suite.js";

const url = inject("postgresUrl");

describe.skipIf(url === null)("on PostgreSQL", () => {
  const schema = freshSchema("shared_state");
  let storages: [SqlStorage, SqlStorage];
  beforeAll(async () => {
    storages = [createPostgresStorage({ url: url!, schema }), createPostgresStorage({ url: url!, schema })];
    await storages[0].init(tables.allTables);
  });
  afterAll(async () => {
    await Promise.all(storages.map((s) => s.close()));
    await dropSchema(url!, schema);
  });

  sharedStateSuite("postgres", async () => {
    await storages[0].clear();
    return { storages, close: async () => {} };
  });
});

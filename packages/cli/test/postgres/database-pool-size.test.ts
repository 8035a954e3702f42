/*
 * `playfield-server --database-pool-size N` on a real PostgreSQL: under
 * calls in flight together, the process holds at most N pooled connections
 * and the one that listens for notices of written rows (docs/deploy.md,
 * "What each process needs"). The connections are found by the
 * application_name the URL gives them all. Skipped (said once by the global
 * setup) when PostgreSQL does not answer; in CI it must.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { dropSchema, freshSchema } from "../../../storage-postgres/test/postgres-schema.js";
import { call, startServerProcess } from "../server-process.js";

const url = inject("postgresUrl");

describe.skipIf(url === null)("playfield-server --database-pool-size on PostgreSQL", () => {
  const schema = freshSchema("pool_size");
  afterAll(() => dropSchema(url!, schema));

  it("should hold at most the pool's connections and the listening one under concurrent calls", async () => {
    const name = `playfield-pool-${randomBytes(4).toString("hex")}`;
    const named = `${url!}${url!.includes("?") ? "&" : "?"}application_name=${name}`;
    const server = await startServerProcess(["--database-url", named, "--database-schema", schema, "--database-pool-size", "2", "--demo"]);
    // One connection of the test's own, asking how many of the server's are open while the calls run.
    const admin = new pg.Client({ connectionString: url! });
    await admin.connect();
    try {
      let running = true;
      const counts: number[] = [];
      const counting = (async () => {
        while (running) {
          const { rows } = await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1", [name]);
          counts.push(rows[0]!.n);
        }
      })();
      try {
        // Guests write (no password to hash, so the hashing queue refuses none), lists read: 48 calls in flight at once
        // (without the flag, the process held 8 connections for them here).
        await Promise.all(Array.from({ length: 48 }, (_, i) => i % 2 === 0
          ? call(server.url, "IdentityService/StartGuest", {})
          : call(server.url, "CatalogService/ListExperiences", { sort: "popular" })));
      } finally {
        running = false;
        await counting;
      }
      expect(Math.max(...counts)).toBeLessThanOrEqual(3);
      // The calls did use both pooled connections (and the listening one was up): the limit, not the load, kept it at 3.
      expect(Math.max(...counts)).toBe(3);
    } finally {
      await admin.end();
      await server.stop();
    }
  }, 60_000);
});

/*
 * The listening connection's own URL (`listenUrl`): a pool behind PgBouncer
 * in transaction mode cannot hold a LISTEN, so the connection that listens
 * for notices of written rows may go elsewhere (docs/deploy.md).
 */
import { randomBytes } from "node:crypto";
import { defineTable } from "@playfield/core";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage, pgDatabase } from "../src/index.js";
import { listenConfig } from "../src/pg-database.js";
import { adminQuery, dropSchema, freshSchema } from "./postgres-schema.js";

interface Row { id: string; n: number }
const Cached = defineTable<Row>()({ name: "listen_rows", primaryKey: (row) => row.id, indexes: {}, cachedReads: true });

describe("the listening connection's settings with a URL of its own", () => {
  it("should connect to the listen URL and to none of the pool's settings", async () => {
    const pool = new pg.Pool({ host: "10.0.0.1", port: 6432, user: "pooled", password: "s3cret", database: "db" });
    try {
      expect(listenConfig(pool, "postgres://direct@10.0.0.2:5432/db")).toEqual({ connectionString: "postgres://direct@10.0.0.2:5432/db", application_name: "playfield-listen" });
    } finally {
      await pool.end();
    }
  });
});

const url = inject("postgresUrl");

describe.skipIf(url === null)("a storage listening through its listen URL", () => {
  const schema = freshSchema("listen_url");
  afterAll(() => dropSchema(url!, schema));

  it("should LISTEN on a connection made from the listen URL", async () => {
    // The URL's application_name names the connection it makes, so the test can find it among the server's.
    const name = `playfield-listen-url-${randomBytes(4).toString("hex")}`;
    const listenUrl = `${url!}${url!.includes("?") ? "&" : "?"}application_name=${name}`;
    const storage = createPostgresStorage({ url: url!, schema, listenUrl });
    try {
      await storage.init([Cached]);
      let listening: { query: string }[] = [];
      for (let i = 0; i < 100 && listening.length === 0; i++) {
        listening = await adminQuery<{ query: string }>(url!, `SELECT query FROM pg_stat_activity WHERE application_name = '${name}' AND query LIKE 'LISTEN%'`);
        if (listening.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(listening).toEqual([{ query: expect.stringContaining(`"playfield_rows:${schema}"`) }]);
    } finally {
      await storage.close();
    }
  });
});

describe.skipIf(url === null)("notices on the listening connection", () => {
  it("should hear the notices of other connections, not its own", async () => {
    const database = pgDatabase(url!);
    const channel = `playfield_test_${randomBytes(4).toString("hex")}`;
    const heard: string[] = [];
    let up: () => void;
    const listening = new Promise<void>((resolve) => (up = resolve));
    const listener = database.listen!(channel, { notice: (payload) => heard.push(payload), listening: (on) => on && up() });
    try {
      await listening;
      // Its own notice goes on the listening connection; the other's is committed after it, so it arrives after it.
      await listener.notify("own");
      await adminQuery(url!, `SELECT pg_notify('${channel}', 'other')`);
      for (let i = 0; i < 200 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard).toEqual(["other"]);
    } finally {
      await listener.stop();
      await database.close();
    }
  });
});

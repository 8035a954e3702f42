/*
 * /readyz on a real database: ready while PostgreSQL answers, 503 naming
 * the storage once it is gone (its pool closed) or when it was never
 * reachable. The reachable case is skipped (said once by the global setup)
 * when PostgreSQL does not answer; in CI it must.
 */
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPostgresStorage } from "@playfield/storage-postgres";
import { dropSchema, freshSchema } from "../../../storage-postgres/test/postgres-schema.js";
import { createServer } from "../../src/index.js";

const url = inject("postgresUrl");

async function readyz(server: { fetch: typeof fetch }) {
  const response = await server.fetch("http://playfield.test/readyz");
  return { status: response.status, body: (await response.json()) as unknown };
}

describe("GET /readyz on PostgreSQL", () => {
  it("should answer 503 naming the storage when the database cannot be reached", async () => {
    // Port 1 on loopback: nothing listens there, the connection is refused at once.
    const storage = createPostgresStorage({ url: "postgres://postgres@127.0.0.1:1/test" });
    try {
      expect(await readyz(createServer({ storage, environment: "test" }))).toEqual({ status: 503, body: { status: "not_ready", failing: ["storage"] } });
    } finally {
      await storage.close();
    }
  });

  describe.skipIf(url === null)("reachable", () => {
    const schema = freshSchema("readyz");
    afterAll(() => dropSchema(url!, schema));

    it("should answer 200 while the database answers, and 503 once it is gone", async () => {
      const storage = createPostgresStorage({ url: url!, schema });
      const server = createServer({ storage, environment: "test" });
      await storage.init([]);
      expect(await readyz(server)).toEqual({ status: 200, body: { status: "ready" } });
      await storage.close();
      expect(await readyz(server)).toEqual({ status: 503, body: { status: "not_ready", failing: ["storage"] } });
    });
  });
});

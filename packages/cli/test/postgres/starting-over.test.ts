/*
 * docs/configuration.md, "Starting over", on PostgreSQL: a world kept in a
 * schema of its own survives a restart, the page's DROP SCHEMA throws it away
 * (the schema is gone), and the next start makes an empty one. Skipped (said
 * once by the global setup) when PostgreSQL does not answer; in CI it must.
 */
import { describe, expect, inject, it } from "vitest";
import { adminQuery, dropSchema, freshSchema } from "../../../storage-postgres/test/postgres-schema.js";
import { signUpAda, startingOverCommands } from "../starting-over.js";

const url = inject("postgresUrl");

describe.skipIf(url === null)("starting over on PostgreSQL (docs/configuration.md)", () => {
  it("should keep the world in its schema, and start empty once the page's DROP SCHEMA has run", async () => {
    const schema = freshSchema("starting_over");
    const { start, remove } = startingOverCommands("postgres");
    // The page's commands, on this run's database and a schema of the test's own.
    const flags = start.replace(/^npm start -- /, "").split(" ");
    expect(flags).toEqual(["--database-url", expect.stringMatching(/^postgres:\/\//), "--database-schema", "my_world"]);
    const args = ["--database-url", url!, "--database-schema", schema];
    const sql = /^psql \S+ -c '([^']+)'$/.exec(remove)?.[1];
    expect(sql).toBe("DROP SCHEMA my_world CASCADE");
    try {
      expect(await signUpAda(args)).toBe("");
      expect(await signUpAda(args), "the schema kept the account").toBe("already_exists");
      await adminQuery(url!, sql!.replace("my_world", schema));
      expect(await adminQuery(url!, `SELECT 1 FROM pg_namespace WHERE nspname = '${schema}'`)).toEqual([]);
      expect(await signUpAda(args), "a new schema, an empty world").toBe("");
    } finally {
      await dropSchema(url!, schema);
    }
  }, 180_000);
});

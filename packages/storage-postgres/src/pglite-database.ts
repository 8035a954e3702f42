/*
 * The query interface on embedded PGlite: PostgreSQL compiled to
 * WebAssembly, in this process, with one connection. Sessions take turns.
 */
import { PGlite } from "@electric-sql/pglite";
import { createQueue, type SqlDatabase } from "./sql-database.js";

/**
 * A database on a PGlite instance: the caller's, or a new one in `dataDir`
 * (a folder, created when missing) or in memory when none is given.
 *
 * @example
 * const database = pgliteDatabase("./data");
 */
export function pgliteDatabase(source?: string | PGlite): SqlDatabase {
  const db = source instanceof PGlite ? source : new PGlite(source);
  const turns = createQueue();
  return {
    kind: "pglite",
    session: (fn) => turns(() => {
      const queue = createQueue();
      return fn({ query: (text, params) => queue(async () => (await db.query<never>(text, params ? [...params] : undefined)).rows) });
    }),
    close: () => turns(() => db.close()),
  };
}

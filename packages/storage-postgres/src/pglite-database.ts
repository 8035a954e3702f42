/*
 * The query interface on embedded PGlite: PostgreSQL compiled to
 * WebAssembly, in this process, with one connection. Sessions take turns.
 */
import { PGlite } from "@electric-sql/pglite";
import { PreparedStatements } from "./prepared-statements.js";
import { createQueue, type SqlDatabase } from "./sql-database.js";

/** Per instance (its one connection), however many databases use it. */
const preparedOf = new WeakMap<PGlite, PreparedStatements>();

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
  let prepared = preparedOf.get(db);
  if (prepared === undefined) preparedOf.set(db, prepared = new PreparedStatements());
  return {
    kind: "pglite",
    oneProcess: true,
    session: (fn) => turns(() => {
      const queue = createQueue();
      return fn({
        prepared,
        query: (text, params) => queue(async () => {
          // A statement without parameters goes as a simple query (as node-postgres sends it): PGlite then skips describing it.
          if (params === undefined) return ((await db.exec(text)).at(-1)?.rows ?? []) as never[];
          return (await db.query<never>(text, [...params])).rows;
        }),
        batch: (texts) => queue(async () => (await db.exec(texts.join(";\n"))).map((result) => result.rows as never[])),
      });
    }),
    close: () => turns(() => db.close()),
  };
}

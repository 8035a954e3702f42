/*
 * The query interface on embedded PGlite: PostgreSQL compiled to
 * WebAssembly, in this process, with one connection. Sessions take turns.
 */
import { PGlite } from "@electric-sql/pglite";
import { lockDataDir } from "./data-dir-lock.js";
import { isFolder, syncedPglite } from "./pglite-disk.js";
import { PreparedStatements } from "./prepared-statements.js";
import { createQueue, type SqlDatabase } from "./sql-database.js";
import { simpleTexts, type Sql } from "./sql-statement.js";

/** Per instance (its one connection), however many databases use it. */
const preparedOf = new WeakMap<PGlite, PreparedStatements>();

/**
 * A database on a PGlite instance: the caller's, or a new one in `dataDir`
 * (a folder, created when missing, held by this process until close:
 * {@link lockDataDir}; its commits reach the disk before they return:
 * pglite-disk.ts) or in memory when none is given.
 *
 * @example
 * const database = pgliteDatabase("./data");
 */
export function pgliteDatabase(source?: string | PGlite): SqlDatabase {
  // A folder's lock comes first: PGlite must not open a folder another process writes.
  const lock = typeof source === "string" && isFolder(source) ? lockDataDir(source) : null;
  let db: PGlite;
  /** Settled once a folder's instance syncs its commits: no session before. */
  let synced: Promise<void> | undefined;
  let durable: (() => Promise<void>) | undefined;
  if (source instanceof PGlite) db = source;
  else if (isFolder(source)) {
    ({ db, synced, durable } = syncedPglite(source));
    // Its failure goes to every session; not unhandled when none comes.
    synced.catch(() => undefined);
  } else db = new PGlite(source);
  const turns = createQueue();
  let prepared = preparedOf.get(db);
  if (prepared === undefined) preparedOf.set(db, prepared = new PreparedStatements());
  return {
    kind: "pglite",
    oneProcess: true,
    session: (fn) => turns(async () => {
      await synced;
      const queue = createQueue();
      return fn({
        prepared,
        query: (text, params) => queue(async () => {
          // A statement without parameters goes as a simple query (as node-postgres sends it): PGlite then skips describing it.
          if (params === undefined) return ((await db.exec(text)).at(-1)?.rows ?? []) as never[];
          return (await db.query<never>(text, [...params])).rows;
        }),
        batch: (statements) => queue(() => batch(db, statements)),
      });
    }),
    durable,
    close: () => turns(async () => {
      await db.close();
      lock?.release();
    }),
  };
}

/**
 * `statements` as one simple query (PGlite runs one message at a time on this thread: a prepared statement goes as
 * EXECUTE, after its PREPARE when the message prepares it), answering each statement's rows.
 */
async function batch(db: PGlite, statements: readonly Sql[]): Promise<never[][]> {
  const texts: string[] = [];
  const answers: number[] = [];
  for (const sql of statements) {
    texts.push(...simpleTexts(sql));
    answers.push(texts.length - 1);
  }
  const results = await db.exec(texts.join(";\n"));
  return answers.map((at) => (results[at]?.rows ?? []) as never[]);
}

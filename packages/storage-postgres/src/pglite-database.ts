/*
 * The query interface on embedded PGlite: PostgreSQL compiled to
 * WebAssembly, in this process, with one connection. Sessions take turns.
 */
import { PGlite } from "@electric-sql/pglite";
import { lockDataDir } from "./data-dir-lock.js";
import { runBatch } from "./pglite-batch.js";
import { isFolder, syncedPglite } from "./pglite-disk.js";
import { createQueue, type Sql, type SqlDatabase } from "./sql-database.js";

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
  return {
    kind: "pglite",
    oneProcess: true,
    session: (fn) => turns(async () => {
      await synced;
      const queue = createQueue();
      return fn({
        query: (text, params = []) => queue(() => run(db, { text, params })),
        batch: (statements) => queue(async () => {
          // All in one exchange (pglite-batch.ts); the first failure fails the batch (the ones after it failed for it).
          const outcomes = await runBatch(db, statements);
          const failed = outcomes.find((outcome) => outcome instanceof Error);
          if (failed !== undefined) throw failed;
          return outcomes as never[][];
        }),
      });
    }),
    durable,
    close: () => turns(async () => {
      await db.close();
      lock?.release();
    }),
  };
}

/** One statement's rows: with parameters, bound; without, as a simple query (which may hold several statements: the last one's rows). */
async function run(db: PGlite, sql: Sql): Promise<never[]> {
  // As node-postgres sends it: PGlite then skips describing the statement.
  if (sql.params.length === 0) return ((await db.exec(sql.text)).at(-1)?.rows ?? []) as never[];
  const [outcome] = await runBatch(db, [sql]);
  if (outcome instanceof Error) throw outcome;
  return outcome!;
}

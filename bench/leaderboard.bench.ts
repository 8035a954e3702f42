/*
 * Leaderboards at 1,000,000 entries: one ordered store (the server's
 * `ordered_entries` table, whose `top` and `bottom` indexes are counted) on
 * PostgreSQL (node-postgres, loopback) and on embedded PGlite (in memory),
 * against the in-memory adapter measured in the same run. Each operation is
 * its own transaction, as a DatastoreService call makes it:
 *
 *   top 10           ListOrdered's first page
 *   offset 500,000   ListOrdered at offset 500,000, 10 entries
 *   rank             a random key's rank (orderedRank: its row and two counts)
 *   increment        IncrementOrdered's write: read the key, put it back moved
 *   baseline         the same read and write on a table with no index: any
 *                    write transaction's cost (round trips, COMMIT's fsync)
 *
 * then increments with 16 transactions in flight on PostgreSQL (runs per
 * transaction, failures), and a check that every count is still exact.
 *
 *   node --conditions=@playfield/source --import tsx bench/leaderboard.bench.ts
 *
 * DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/test).
 * ENTRIES sets the board's size (default 1,000,000), BENCH_SAMPLES the timed
 * calls per case (default 300).
 *
 * Building a board of a million entries takes minutes on each database, so
 * the built boards are kept for the next run, named for the board's data
 * version and size (the output says which were reused): on PostgreSQL the
 * schema `bench_leaderboard_v<version>_<entries>`, whose entries the run
 * puts back as they were after its writes (a run that stops half way leaves
 * it marked, and the next one builds it again); for PGlite a dump of its
 * data folder in the system's temporary folder, which each run loads into
 * memory. Drop the schema, or delete the dump, to build them again.
 */
import { defineTable, tables, type OrderedEntryRow, type Storage } from "@playfield/core";
import { PGlite } from "@electric-sql/pglite";
import { openAsBlob } from "node:fs";
import { access, mkdir, rename, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryStorage } from "../packages/server/src/ports/memory-storage/index.js";
import { orderedRank } from "../packages/server/src/services/datastore/ordered-rank.js";
import { createPgliteStorage, createPostgresStorage, type SqlStorage } from "../packages/storage-postgres/src/index.js";
import { adminQuery, dropSchema } from "../packages/storage-postgres/test/postgres-schema.js";
import { formatDuration } from "./lib/measure.js";
import { seededRandom } from "./lib/seeded-random.js";

const ENTRIES = Number(process.env.ENTRIES ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const IN_FLIGHT = 16;
const EXPERIENCE = "bench-experience";
const STORE = "board";
const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
/** Raise when the board's rows (below) or how the adapter stores them change: kept boards of another version are not used. */
const BOARD_VERSION = 1;
const schema = `bench_leaderboard_v${BOARD_VERSION}_${ENTRIES}`;
const pgliteDump = join(tmpdir(), "playfield-bench", `leaderboard-v${BOARD_VERSION}-${ENTRIES}.tar`);

const random = seededRandom(5);
const keyOf = (i: number) => `player-${i}`;
const entry = (key: string, value: number): OrderedEntryRow => ({
  id: tables.orderedEntryId(EXPERIENCE, STORE, key), experienceId: EXPERIENCE, store: STORE, key, value, updatedAt: 0,
});
const pickKey = () => keyOf(Math.floor(random() * ENTRIES));

/** The board: scores up to 10,000,000, so that most are distinct and some tie. */
const board = Array.from({ length: ENTRIES }, (_, i) => entry(keyOf(i), Math.floor(random() * 10_000_000)));

/** Builds the board: on the SQL storages with `SqlStorage.load` (multi-row inserts, one recount, VACUUM ANALYZE). */
async function build(storage: Storage): Promise<number> {
  const started = performance.now();
  if ("load" in storage) await (storage as SqlStorage).load([tables.orderedEntries], (put) => put(tables.orderedEntries, board));
  else {
    for (let i = 0; i < board.length; i += 20_000) {
      await storage.transact(async (tx) => {
        for (const row of board.slice(i, i + 20_000)) await tx.put(tables.orderedEntries, row);
      });
    }
  }
  return performance.now() - started;
}

/** The kept PostgreSQL board's state, in a table of its own in the schema: "clean" when it holds exactly `board`. */
const boardState = async () => (await adminQuery<{ state: string }>(url, `SELECT state FROM "${schema}".bench_board`).catch(() => []))[0]?.state;
const markBoard = (state: "clean" | "written") => adminQuery(url, `CREATE TABLE IF NOT EXISTS "${schema}".bench_board (state text NOT NULL); DELETE FROM "${schema}".bench_board; INSERT INTO "${schema}".bench_board VALUES ('${state}')`);

/**
 * VACUUMs the kept board (quick when there is little to do) and answers the share of its table's
 * pages marked all-visible: counted indexes walk bucket entries in the index alone on those pages
 * only. (A VACUUM cannot mark rows that a transaction still open elsewhere in the database may not
 * see: on a busy server, the share can stay low for a while after writes.)
 */
async function vacuumBoard(): Promise<number> {
  const tablesOfBoard = ["ordered_entries", "ordered_entries_k1_n", "ordered_entries_k2_n"].map((name) => `"${schema}".${name}`);
  await adminQuery(url, `VACUUM (ANALYZE) ${tablesOfBoard.join(", ")}`);
  const [row] = await adminQuery<{ share: number }>(url, `SELECT relallvisible::float / greatest(relpages, 1) AS share FROM pg_class WHERE oid = '${tablesOfBoard[0]}'::regclass`);
  return row?.share ?? 0;
}

/** The PostgreSQL board: the kept one when it is clean, else built again. Answers how it was had. */
async function postgresBoard(storage: SqlStorage): Promise<string> {
  if ((await boardState()) === "clean") return `PostgreSQL reused (schema ${schema})`;
  await dropSchema(url, schema);
  const took = await build(storage);
  await markBoard("clean");
  return `PostgreSQL built in ${formatDuration(took)} (kept in schema ${schema})`;
}

/** The PGlite board, in memory: loaded from the kept dump, else built and dumped. */
async function pgliteBoard(): Promise<{ storage: SqlStorage; how: string }> {
  if (await access(pgliteDump).then(() => true, () => false)) {
    const started = performance.now();
    const storage = createPgliteStorage({ pglite: new PGlite({ loadDataDir: await openAsBlob(pgliteDump) }) });
    await storage.init([tables.orderedEntries]);
    return { storage, how: `PGlite loaded from ${pgliteDump} in ${formatDuration(performance.now() - started)}` };
  }
  const pglite = new PGlite();
  const storage = createPgliteStorage({ pglite });
  const took = await build(storage);
  // A checkpoint first: the dump then leaves out the write-ahead log of the build.
  await pglite.exec("CHECKPOINT");
  await mkdir(join(pgliteDump, ".."), { recursive: true });
  await writeFile(`${pgliteDump}.part`, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
  await rename(`${pgliteDump}.part`, pgliteDump);
  return { storage, how: `PGlite built in ${formatDuration(took)} (dumped to ${pgliteDump})` };
}

/** Keys the run wrote on PostgreSQL, so that the kept board is put back as it was. */
const written = new Set<string>();

/** Puts the kept PostgreSQL board back as `board` holds it, through the storage (so that its counts stay exact). */
async function restoreBoard(storage: Storage): Promise<void> {
  const keys = [...written];
  for (let i = 0; i < keys.length; i += 500) {
    await storage.transact(async (tx) => {
      for (const key of keys.slice(i, i + 500)) {
        const original = key.startsWith("player-") ? board[Number(key.slice("player-".length))] : undefined;
        if (original) await tx.put(tables.orderedEntries, original);
        else await tx.delete(tables.orderedEntries, tables.orderedEntryId(EXPERIENCE, STORE, key));
      }
    });
  }
  await vacuumBoard();
  await markBoard("clean");
}

/** IncrementOrdered's write on the ordered table: read the key's entry, put it back with the delta added. */
const increment = (storage: Storage, key: string, delta: number) => {
  if (storage === postgres) written.add(key);
  return storage.transact(async (tx) => {
    const current = await tx.get(tables.orderedEntries, tables.orderedEntryId(EXPERIENCE, STORE, key));
    await tx.put(tables.orderedEntries, entry(key, (current?.value ?? 0) + delta));
  });
};

/** The same read and write on a table with no index: what any write transaction costs on the storage, counts aside. */
const plainRows = defineTable<{ id: string; value: number }>()({ name: "bench_plain_rows", primaryKey: (row) => row.id, indexes: {} });
const plainIncrement = (storage: Storage, key: string, delta: number) => storage.transact(async (tx) => {
  const current = await tx.get(plainRows, key);
  await tx.put(plainRows, { id: key, value: (current?.value ?? 0) + delta });
});

/**
 * Reads run in read-only transactions, as a read call should: a serializable transaction that
 * walks a bucket takes predicate locks on up to ~2,000 table pages (promoted to one on the table),
 * kept after it commits while older transactions elsewhere run; a run with read-write reads
 * failed on this shared server with "out of shared memory" (max_pred_locks_per_transaction).
 */
const READ = { readOnly: true };

const cases: { name: string; run: (storage: Storage) => Promise<unknown> }[] = [
  { name: "top 10", run: (storage) => storage.transact((tx) => tx.query(tables.orderedEntries, "top", { equals: [EXPERIENCE, STORE], limit: 10 }), READ) },
  {
    name: `offset ${(ENTRIES / 2).toLocaleString("en")}, 10 entries`,
    run: (storage) => storage.transact((tx) => tx.query(tables.orderedEntries, "top", { equals: [EXPERIENCE, STORE], offset: ENTRIES / 2, limit: 10 }), READ),
  },
  { name: "rank of a key", run: (storage) => storage.transact((tx) => orderedRank(tx, EXPERIENCE, STORE, pickKey()), READ) },
  { name: "increment", run: (storage) => increment(storage, pickKey(), 1 + Math.floor(random() * 100_000)) },
  { name: "the same on a table with no index (baseline)", run: (storage) => plainIncrement(storage, pickKey(), 1 + Math.floor(random() * 100_000)) },
];

/** p50 and p99 of `SAMPLES` calls one after another (after 20 to warm up), in ms. */
async function latencies(op: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 20; i++) await op();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now();
    await op();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)]!, p99: times[Math.min(times.length - 1, Math.floor(times.length * 0.99))]! };
}

/** `IN_FLIGHT` callers incrementing random keys (some new) on one board for `seconds`: rate, latency, runs per transaction. */
async function concurrentIncrements(storage: Storage, seconds: number) {
  const times: number[] = [];
  let runs = 0, failures = 0, added = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async (_, caller) => {
    for (let n = 0; performance.now() < end; n++) {
      // One increment in ten creates a key, so that bucket counts are written too, not only moved within.
      const fresh = n % 10 === 0;
      const key = fresh ? `new-${caller}-${n}` : pickKey();
      written.add(key);
      const start = performance.now();
      try {
        await storage.transact(async (tx) => {
          runs++;
          const current = await tx.get(tables.orderedEntries, tables.orderedEntryId(EXPERIENCE, STORE, key));
          await tx.put(tables.orderedEntries, entry(key, (current?.value ?? 0) + 1 + (n % 1_000)));
        });
        if (fresh) added++;
      } catch {
        failures++;
      }
      times.push(performance.now() - start);
    }
  }));
  times.sort((a, b) => a - b);
  return { rate: times.length / seconds, p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]!, runsPerTx: runs / times.length, failures, added };
}

const countAll = (storage: Storage) => storage.transact((tx) => tx.count(tables.orderedEntries, "top", { equals: [EXPERIENCE, STORE] }));

const memory = createMemoryStorage();
const postgres = createPostgresStorage({ url, schema, pool: { connectionString: url, max: IN_FLIGHT } });
let pglite: SqlStorage | undefined;
try {
  // The SQL storages first: the memory adapter's million rows make this process's heap (and its GC) large.
  const boards = [await postgresBoard(postgres)];
  const loaded = await pgliteBoard();
  pglite = loaded.storage;
  boards.push(loaded.how, `memory built in ${formatDuration(await build(memory))} (20,000 puts per transaction)`);
  const storages: [string, Storage][] = [["memory", memory], ["PostgreSQL", postgres], ["PGlite", pglite]];
  const version = (await adminQuery<{ server_version: string }>(url, "SHOW server_version"))[0]?.server_version;
  const buckets = (await adminQuery<{ n: number }>(url, `SELECT count(*)::int AS n FROM "${schema}".ordered_entries_k1_n`))[0]?.n;
  const visible = await vacuumBoard();
  console.log(`Node ${process.version}, PostgreSQL ${version} on loopback, PGlite in memory; one board of ${ENTRIES.toLocaleString("en")} entries (${buckets} buckets per counted index on PostgreSQL, ${Math.round(visible * 100)} % of its table's pages all-visible after a VACUUM): ${boards.join("; ")}; ${SAMPLES} calls per case; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs`);

  // From here on the kept PostgreSQL board is written: marked so until it is put back.
  await markBoard("written");
  console.log(`\n### One transaction after another\n`);
  console.log(`| operation | memory p50 | PostgreSQL p50 | PostgreSQL p99 | PGlite p50 | PGlite p99 |`);
  console.log(`|---|---:|---:|---:|---:|---:|`);
  for (const c of cases) {
    const [m, p, l] = [await latencies(() => c.run(memory)), await latencies(() => c.run(postgres)), await latencies(() => c.run(pglite!))];
    console.log(`| ${c.name} | ${formatDuration(m.p50)} | ${formatDuration(p.p50)} | ${formatDuration(p.p99)} | ${formatDuration(l.p50)} | ${formatDuration(l.p99)} |`);
  }

  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const hot = await concurrentIncrements(postgres, seconds);
  console.log(`\n### Increments with ${IN_FLIGHT} transactions in flight on PostgreSQL (${seconds} s; one in ten creates a key)\n`);
  console.log(`| increments/s | p50 | p99 | runs per transaction | failed |`);
  console.log(`|---:|---:|---:|---:|---:|`);
  console.log(`| ${Math.round(hot.rate).toLocaleString("en")} | ${formatDuration(hot.p50)} | ${formatDuration(hot.p99)} | ${hot.runsPerTx.toFixed(2)} | ${hot.failures} |`);

  // The counts must still be exact: the board's count, and the last page, on each storage.
  const expected = new Map([["memory", ENTRIES], ["PostgreSQL", ENTRIES + hot.added], ["PGlite", ENTRIES]]);
  const checks: string[] = [];
  for (const [name, storage] of storages) {
    const counted = await countAll(storage);
    const last = await storage.transact((tx) => tx.query(tables.orderedEntries, "top", { equals: [EXPERIENCE, STORE], offset: counted - 1 }));
    const exact = counted === expected.get(name) && last.length === 1;
    checks.push(`${name} ${counted.toLocaleString("en")} ${exact ? "exact" : "WRONG"}`);
    if (!exact) process.exitCode = 1;
  }
  console.log(`\nEntries counted after the run (and the entry at offset count − 1 found): ${checks.join(", ")}.`);
  await restoreBoard(postgres);
  console.log(`The kept PostgreSQL board was put back as it was (${written.size.toLocaleString("en")} keys written by the run).`);
} finally {
  await pglite?.close();
  await postgres.close();
}

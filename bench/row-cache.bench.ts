/*
 * Cached rows (docs/storage.md, "Cached rows"): the token check's read-only
 * transaction of two gets, on a table declared `cachedReads` against the
 * same rows in a table that is not, on PostgreSQL and on PGlite in the same
 * run; and how long a write through one storage takes to reach another on
 * the same PostgreSQL schema (two processes' worth: each its own pool and
 * listening connection), from the writer's `transact` resolving to the
 * other's first read that sees it.
 *
 *   node --conditions=@playfield/source --import tsx bench/row-cache.bench.ts
 *
 * DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/test);
 * the bench works in a schema of its own and drops it after.
 */
import { defineTable, type Storage, type TableDef } from "@playfield/core";
import { cpus, loadavg } from "node:os";
import { createPgliteStorage, createPostgresStorage, type SqlStorage } from "../packages/storage-postgres/src/index.js";
import { dropSchema } from "../packages/storage-postgres/test/postgres-schema.js";
import { measure, printTable } from "./lib/measure.js";

const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const schema = `bench_row_cache_${process.pid}`;
// A hundred players: each row is read again well within rowCacheMs (5 s), as on a server where players call many times a second.
const ROWS = 100;
const WRITES = 300;

interface Row { id: string; n: number }
const Cached = defineTable<Row>()({ name: "bench_cached", primaryKey: (row) => row.id, indexes: {}, cachedReads: true });
const Plain = defineTable<Row>()({ name: "bench_plain", primaryKey: (row) => row.id, indexes: {} });

let next = 0;
/** Two gets in one read-only transaction, as the token check makes (a device and its user). */
const check = (storage: Storage, table: TableDef<Row>) => {
  const i = next++ % ROWS;
  return storage.transact((tx) => Promise.all([tx.get(table, `d${i}`), tx.get(table, `u${i}`)]), { readOnly: true });
};

async function seed(storage: Storage): Promise<void> {
  await storage.transact(async (tx) => {
    for (let i = 0; i < ROWS; i++) {
      for (const table of [Cached, Plain]) {
        await tx.put(table, { id: `d${i}`, n: i });
        await tx.put(table, { id: `u${i}`, n: i });
      }
    }
  });
}

/** Writes through `writer`, then reads through `reader` until it sees the write: the delays, sorted. */
async function noticeDelays(writer: SqlStorage, reader: SqlStorage): Promise<number[]> {
  const read = () => reader.transact(async (tx) => (await tx.get(Cached, "k"))?.n, { readOnly: true });
  const delays: number[] = [];
  for (let i = 1; i <= WRITES; i++) {
    await writer.transact((tx) => tx.put(Cached, { id: "k", n: 2 * i }));
    // Until the reader answers from its copy (the notice of this write may drop its first copy).
    for (let tries = 0; tries < 100 && (await read()) !== 2 * i; tries++) await new Promise((resolve) => setTimeout(resolve, 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await read();
    await writer.transact((tx) => tx.put(Cached, { id: "k", n: 2 * i + 1 }));
    const start = performance.now();
    while ((await read()) !== 2 * i + 1) await new Promise((resolve) => setImmediate(resolve));
    delays.push(performance.now() - start);
  }
  return delays.sort((a, b) => a - b);
}

const postgres = createPostgresStorage({ url, schema });
const other = createPostgresStorage({ url, schema, rowCacheMs: 60_000 });
const pglite = createPgliteStorage();
try {
  await Promise.all([postgres.init([Cached, Plain]), pglite.init([Cached, Plain])]);
  await other.init([Cached, Plain]);
  await seed(postgres);
  await seed(pglite);
  console.log(`Node ${process.version}, PostgreSQL on loopback (pool of 10), PGlite in memory; ${ROWS.toLocaleString("en")} pairs of rows; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs`);
  for (const [name, storage] of [["PostgreSQL", postgres], ["PGlite", pglite]] as const) {
    // Once over every row, so that the cached table's rows are all copied.
    for (let i = 0; i < ROWS; i++) await check(storage, Cached);
    const baseline = await measure(`${name}: two gets, table not cached`, () => check(storage, Plain));
    printTable(`${name}: a read-only transaction of two gets, one after another`, [
      baseline,
      await measure(`${name}: two gets, cachedReads table`, () => check(storage, Cached)),
    ], baseline);
  }
  const delays = await noticeDelays(postgres, other);
  const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]!.toFixed(2);
  console.log(`\nA write through one storage seen by another on the same schema (${WRITES} writes): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms after the writer's transact resolved.`);
} finally {
  await pglite.close();
  await other.close();
  await postgres.close();
  await dropSchema(url, schema);
}

/*
 * Probe (not a bench): what waiting for the disk costs the adapter's writes (docs/storage.md, "Durability"). Puts
 * of one row each (a table with no index: on PostgreSQL every put is one whole message, which goes together with
 * others under load: grouped-commits.ts), by 50 callers each writing its own row and by one caller alone, in
 * alternating rounds of each mode: calls a second, and the median wait of a call. Modes: PostgreSQL
 * (`createPostgresStorage`, a pool of 10) as the adapter is, each answer after its commit is on disk, and the same on
 * connections opened with `synchronous_commit = off` (commits not waited for); PGlite in a data folder as
 * `createPgliteStorage({ dataDir })` opens it (each commit synced), and on a PGlite made as PGlite makes it
 * (`new PGlite(folder)`: fsync off, nothing synced).
 *   PLAYFIELD_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --conditions=@playfield/source --import tsx bench/probes/durable-commits.ts
 * PROBE_ROUNDS (default 5) and PROBE_SECONDS (default 3) set the rounds.
 */
import { defineTable } from "@playfield/core";
import { PGlite } from "@electric-sql/pglite";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createPgliteStorage, createPostgresStorage, type SqlStorage } from "../../packages/storage-postgres/src/index.js";

const url = process.env.PLAYFIELD_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const ROUNDS = Number(process.env.PROBE_ROUNDS ?? 5);
const SECONDS = Number(process.env.PROBE_SECONDS ?? 3);
const CALLERS = 50;
const schema = `probe_durable_${process.pid}`;

interface Row { id: string; n: number }
const Plain = defineTable<Row>()({ name: "probe_plain", primaryKey: (row) => row.id, indexes: {} });

const folder = await mkdtemp(join(tmpdir(), "probe-durable-"));
const storages = new Map<string, SqlStorage>([
  ["PostgreSQL, durable", createPostgresStorage({ pool: new pg.Pool({ connectionString: url, max: 10 }), schema })],
  ["PostgreSQL, synchronous_commit off", createPostgresStorage({ pool: new pg.Pool({ connectionString: url, max: 10, options: "-c synchronous_commit=off" }), schema })],
  ["PGlite folder, synced", createPgliteStorage({ dataDir: join(folder, "synced") })],
  ["PGlite folder, as PGlite makes it", createPgliteStorage({ pglite: new PGlite(join(folder, "unsynced")) })],
]);
for (const storage of storages.values()) await storage.init([Plain]);

/** `callers` loops of puts for SECONDS: calls a second and the median call in ms. */
async function round(storage: SqlStorage, callers: number): Promise<{ rate: number; p50: number }> {
  const waits: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: callers }, async (_, caller) => {
    for (let n = 0; performance.now() < end; n++) {
      const start = performance.now();
      await storage.transact((tx) => tx.put(Plain, { id: `caller-${caller}`, n }));
      waits.push(performance.now() - start);
    }
  }));
  waits.sort((a, b) => a - b);
  return { rate: waits.length / SECONDS, p50: waits[Math.floor(waits.length / 2)]! };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results = new Map<string, { rate: number[]; p50: number[] }>();
try {
  for (const callers of [CALLERS, 1]) {
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, storage] of storages) {
        const figure = await round(storage, callers);
        const key = `${name}, ${callers} caller${callers === 1 ? "" : "s"}`;
        const entry = results.get(key) ?? { rate: [], p50: [] };
        entry.rate.push(figure.rate);
        entry.p50.push(figure.p50);
        results.set(key, entry);
      }
    }
  }
  console.log(`${ROUNDS} alternating rounds of ${SECONDS} s; medians over the rounds. Load average at the end: ${loadavg()[0]!.toFixed(1)}\n`);
  console.log("| mode | calls/s | median call |\n|---|---:|---:|");
  for (const [key, entry] of results) console.log(`| ${key} | ${Math.round(median(entry.rate)).toLocaleString("en")} | ${median(entry.p50).toFixed(2)} ms |`);
} finally {
  for (const storage of storages.values()) await storage.close();
  const client = new pg.Client(url);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
  await rm(folder, { recursive: true, force: true });
}

/*
 * What a transaction costs on PostgreSQL (node-postgres, loopback) and on
 * embedded PGlite (in memory), against the in-memory adapter measured in the
 * same run: one get, one put, and a debit (get then put of the same row),
 * each its own transaction, one after another; then the same on PostgreSQL
 * with 16 transactions in flight (PGlite runs one at a time: it has one
 * connection). Rows are small accounts in a table of 10,000 with one index.
 *
 *   node --conditions=@playfield/source --import tsx bench/storage-postgres.bench.ts
 *
 * DATABASE_URL names the server (default postgres://postgres@127.0.0.1:5432/test);
 * the bench works in a schema of its own and drops it after. BENCH_SECONDS
 * sets each measurement's length (default 1.5).
 */
import { defineTable, type Storage } from "@playfield/core";
import { cpus, loadavg } from "node:os";
import { createMemoryStorage } from "../packages/server/src/ports/memory-storage/index.js";
import { createPgliteStorage, createPostgresStorage } from "../packages/storage-postgres/src/index.js";
import { adminQuery, dropSchema } from "../packages/storage-postgres/test/postgres-schema.js";
import { measure, printTable, type Figure } from "./lib/measure.js";
import { seededRandom } from "./lib/seeded-random.js";

const ROWS = 10_000;
const IN_FLIGHT = 16;
const url = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const schema = `bench_${process.pid}`;

interface Account { id: string; owner: string; balance: number }
const Accounts = defineTable<Account>()({
  name: "bench_accounts",
  primaryKey: (row) => row.id,
  indexes: { byOwner: { key: (row) => [row.owner, row.balance] } },
});

const random = seededRandom(11);
const pick = () => `a${Math.floor(random() * ROWS)}`;

const cases: { name: string; run: (storage: Storage) => Promise<unknown> }[] = [
  { name: "get", run: (storage) => storage.transact((tx) => tx.get(Accounts, pick())) },
  { name: "put", run: (storage) => storage.transact((tx) => tx.put(Accounts, { id: pick(), owner: `o${Math.floor(random() * 100)}`, balance: Math.floor(random() * 1000) })) },
  {
    name: "get+put debit",
    run: (storage) => storage.transact(async (tx) => {
      const row = (await tx.get(Accounts, pick()))!;
      await tx.put(Accounts, { ...row, balance: row.balance - 1 });
    }),
  },
];

async function seed(storage: Storage): Promise<void> {
  for (let i = 0; i < ROWS; i += 1_000) {
    await storage.transact(async (tx) => {
      for (let k = i; k < i + 1_000; k++) await tx.put(Accounts, { id: `a${k}`, owner: `o${k % 100}`, balance: 1_000_000 });
    });
  }
}

/** `IN_FLIGHT` callers, each running `op` one after another: answers completions per second. */
async function measureConcurrent(name: string, op: () => Promise<unknown>): Promise<Figure> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 1.5);
  let calls = 0;
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (performance.now() < end) {
      await op();
      calls++;
    }
  }));
  return { name, rate: calls / ((performance.now() - start) / 1000) };
}

const memory = createMemoryStorage();
const postgres = createPostgresStorage({ url, schema, pool: { connectionString: url, max: IN_FLIGHT } });
const pglite = createPgliteStorage();
try {
  const started = performance.now();
  await pglite.init([Accounts]);
  const pgliteStart = performance.now() - started;
  for (const storage of [memory, postgres, pglite]) await seed(storage);

  const version = (await adminQuery<{ server_version: string }>(url, "SHOW server_version"))[0]?.server_version;
  console.log(`Node ${process.version}, PostgreSQL ${version} on loopback, PGlite in memory (started in ${(pgliteStart / 1000).toFixed(1)} s); ${ROWS.toLocaleString("en")} rows, one index; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs (PostgreSQL's backends share them, so a busy machine slows the database side most)`);

  for (const c of cases) {
    const baseline = await measure(`memory: ${c.name}`, () => c.run(memory));
    const figures = [
      baseline,
      await measure(`PostgreSQL: ${c.name}`, () => c.run(postgres)),
      await measure(`PGlite: ${c.name}`, () => c.run(pglite)),
    ];
    printTable(`${c.name}, one transaction after another`, figures, baseline);
  }
  for (const c of cases) {
    const baseline = await measureConcurrent(`memory: ${c.name}`, () => c.run(memory));
    printTable(`${c.name}, ${IN_FLIGHT} transactions in flight`, [
      baseline,
      await measureConcurrent(`PostgreSQL: ${c.name}`, () => c.run(postgres)),
    ], baseline);
  }
} finally {
  await pglite.close();
  await postgres.close();
  await dropSchema(url, schema);
}


/*
 * Server start time, as `playfield-server` starts (in process, without the
 * command's own Node and tsx start-up): open the storage and set up every
 * table (`init(allTables)`), read or create the signing keys, listen on a
 * port. On PGlite with a new data folder (the folder is created), with an
 * existing one (reopened), against memory as the baseline, in one run.
 * Each start is followed by a graceful close, timed too.
 *
 *   node --conditions=@playfield/source --import tsx bench/server-start.bench.ts
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { tables, type Storage } from "@playfield/core";
import { createMemoryStorage, createSystemClock, storedSigningKeys } from "@playfield/server";
import { startServer } from "@playfield/server/node";
import { createPgliteStorage } from "@playfield/storage-postgres";
import { formatDuration } from "./lib/measure.js";

interface Phases { open: number; init: number; keys: number; listen: number; total: number; close: number }

/** One start as the command does it, then a graceful close; the time of each phase in ms. */
async function startOnce(open: () => Storage & { close?: () => Promise<void> }): Promise<Phases> {
  const t0 = performance.now();
  const storage = open();
  // init([]) opens the database and sets up its bookkeeping alone; the tables come next.
  await storage.init([]);
  const tOpen = performance.now();
  await storage.init(tables.allTables);
  const t1 = performance.now();
  const clock = createSystemClock();
  const keys = await storedSigningKeys(storage, clock);
  const t2 = performance.now();
  const server = await startServer({ storage, clock, keys, port: 0, environment: "development", onInternalError: (error) => { throw error; } });
  const t3 = performance.now();
  await server.close();
  await storage.close?.();
  const t4 = performance.now();
  return { open: tOpen - t0, init: t1 - tOpen, keys: t2 - t1, listen: t3 - t2, total: t3 - t0, close: t4 - t3 };
}

/** The median of each phase over `runs` starts. */
async function median(runs: number, start: () => Promise<Phases>): Promise<Phases> {
  const all: Phases[] = [];
  for (let i = 0; i < runs; i++) all.push(await start());
  const mid = (key: keyof Phases) => all.map((p) => p[key]).sort((a, b) => a - b)[Math.floor(runs / 2)]!;
  return { open: mid("open"), init: mid("init"), keys: mid("keys"), listen: mid("listen"), total: mid("total"), close: mid("close") };
}

const loadAtStart = loadavg()[0]!;
const folder = await mkdtemp(join(tmpdir(), "playfield-bench-start-"));
try {
  const RUNS = 3;
  const memory = await median(RUNS * 3, () => startOnce(() => createMemoryStorage()));
  let n = 0;
  const fresh = await median(RUNS, () => startOnce(() => createPgliteStorage({ dataDir: join(folder, `new-${n++}`) })));
  // The folder of the first new start, reopened: its tables and key exist.
  const existing = await median(RUNS, () => startOnce(() => createPgliteStorage({ dataDir: join(folder, "new-0") })));

  console.log(`\n### Server start as playfield-server does it, in process (median of ${RUNS} on PGlite, ${RUNS * 3} in memory)\n`);
  console.log("| storage | open | init(allTables) | signing keys | listen | start total | vs memory | graceful close |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  const row = (name: string, p: Phases) =>
    console.log(`| ${name} | ${formatDuration(p.open)} | ${formatDuration(p.init)} | ${formatDuration(p.keys)} | ${formatDuration(p.listen)} | ${formatDuration(p.total)} | ${(p.total / memory.total).toFixed(1)} | ${formatDuration(p.close)} |`);
  row("memory (baseline)", memory);
  row("PGlite, existing data folder", existing);
  row("PGlite, new data folder", fresh);
  console.log(`\nLoad average (1 min) when the run began: ${loadAtStart.toFixed(1)} on ${(await import("node:os")).cpus().length} cores: on a loaded machine every figure grows, the ratios less.`);
  console.log("\nThe command itself adds Node's and tsx's start-up in a checkout (the built `dist/cli.js` has no tsx). A new folder is created by PGlite's initdb; a close includes closing PGlite, which writes its folder.");
} finally {
  await rm(folder, { recursive: true, force: true });
}

/*
 * DatastoreService figures.
 *
 * (Get and Set over HTTP, against GetMe, are in http.bench.ts.)
 *
 * 1. In process: an ordered store of 1,000,000 entries: build time, memory,
 *    and ListOrdered top-10 and offset 500,000 through the RPC layer, against
 *    GetMe through the same layer. Target: under 1 ms each.
 * 2. Memory per stored entry for 1,000,000 small values, against a plain Map
 *    of the same keys and values.
 *
 *   node --conditions=@playfield/source --import tsx bench/datastore.bench.ts
 *
 * BENCH_PARTS=memory,ordered picks parts.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { tables, type DatastoreEntryRow, type OrderedEntryRow } from "@playfield/core";
import { createMemoryServer, type MemoryServer } from "@playfield/server-memory";
import { formatDuration, medianMs } from "./lib/measure.js";

/** No budget in the way of a load test. */
const unlimited = { requestsPerMinute: 1e15, storedBytes: 1e15 };

/** A full garbage collection, so heap figures count live data only. */
const gc = (() => {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
})();

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Calls one method through the server's RPC layer (no socket, no Request objects) and answers the body. */
function rpcCall(server: MemoryServer, path: string, token: string, body: string): () => Promise<string> {
  const route = server.rpc.route(path);
  if (!route) throw new Error(`no route ${path}`);
  const headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${token}` };
  return async () => {
    const answer = await server.rpc.handle(route, { method: "POST", header: (name) => headers[name] ?? null, text: async () => body, clientAddress: null });
    if (answer.status !== 200) throw new Error(answer.body);
    return answer.body;
  };
}

async function orderedFigures(): Promise<void> {
  const n = 1_000_000;
  const server = createMemoryServer({ environment: "production", datastore: unlimited });
  const user = await server.seed.user();
  const gameToken = await server.seed.gameToken(user, { experienceId: "exp_bench", sessionId: "gs_bench" });
  const before = heapUsed();
  const start = performance.now();
  // Rows as IncrementOrdered writes them, 10,000 per transaction; values spread with many ties.
  for (let i = 0; i < n; i += 10_000) {
    await server.deps.storage.transact(async (tx) => {
      for (let j = i; j < i + 10_000; j++) {
        const key = `player_${j}`;
        const row: OrderedEntryRow = { id: tables.orderedEntryId("exp_bench", "wins", key), experienceId: "exp_bench", store: "wins", key, value: (j * 7919) % 200_003, updatedAt: 0 };
        await tx.put(tables.orderedEntries, row);
      }
    });
  }
  const buildMs = performance.now() - start;
  const bytes = heapUsed() - before;

  const getMe = rpcCall(server, "/svc.platform.v1.IdentityService/GetMe", user.accessToken, "{}");
  const top = rpcCall(server, "/svc.platform.v1.DatastoreService/ListOrdered", gameToken, JSON.stringify({ store: "wins", limit: 10 }));
  const middle = rpcCall(server, "/svc.platform.v1.DatastoreService/ListOrdered", gameToken, JSON.stringify({ store: "wins", limit: 10, offset: 500_000 }));
  const bottom = rpcCall(server, "/svc.platform.v1.DatastoreService/ListOrdered", gameToken, JSON.stringify({ store: "wins", limit: 10, offset: 500_000, ascending: true }));
  const increment = rpcCall(server, "/svc.platform.v1.DatastoreService/IncrementOrdered", gameToken, JSON.stringify({ store: "wins", delta: 3 }));
  const ranks = JSON.parse(await middle()) as { entries: { rank: string }[] };
  if (ranks.entries[0]?.rank !== "500001") throw new Error(`offset 500,000 answered rank ${ranks.entries[0]?.rank}`);
  for (let i = 0; i < 200; i++) await Promise.all([getMe(), top(), middle(), bottom(), increment()]);
  const runs = 301;
  const base = await medianMs(getMe, runs);
  const rows: [string, number][] = [
    ["GetMe through the RPC layer (baseline)", base],
    ["ListOrdered top 10", await medianMs(top, runs)],
    ["ListOrdered offset 500,000, limit 10", await medianMs(middle, runs)],
    ["ListOrdered ascending, offset 500,000, limit 10", await medianMs(bottom, runs)],
    ["IncrementOrdered (own key, 1M-entry store)", await medianMs(increment, runs)],
  ];
  console.log(`\n### Ordered store of ${n.toLocaleString("en")} entries, in process (median of ${runs})\n`);
  console.log(`Build: ${formatDuration(buildMs)} (${formatDuration((buildMs / n))} per entry, 10,000 puts per transaction); memory: ${(bytes / 2 ** 20).toFixed(0)} MiB (${Math.round(bytes / n)} bytes per entry, three indexes and the primary key).\n`);
  console.log("| case | time | vs GetMe |");
  console.log("|---|---:|---:|");
  for (const [name, ms] of rows) console.log(`| ${name} | ${formatDuration(ms)} | ${(ms / base).toFixed(2)} |`);
}

async function entryMemoryFigures(): Promise<void> {
  const n = 1_000_000;
  const value = (i: number) => `{"level":${i % 100},"coins":${i}}`;
  let before = heapUsed();
  const map = new Map<string, string>();
  for (let i = 0; i < n; i++) map.set(`save_${i}`, value(i));
  const mapBytes = heapUsed() - before;
  map.clear();
  await new Promise((resolve) => setTimeout(resolve, 0));

  const server = createMemoryServer({ environment: "production", datastore: unlimited });
  before = heapUsed();
  for (let i = 0; i < n; i += 10_000) {
    await server.deps.storage.transact(async (tx) => {
      for (let j = i; j < i + 10_000; j++) {
        const key = `save_${j}`;
        const v = value(j);
        // One player's entries as Set writes them.
        const row: DatastoreEntryRow = {
          id: tables.datastoreEntryId("exp_bench", "default", "user", "usr_bench", key), experienceId: "exp_bench", store: "default", scope: "user",
          ownerId: "usr_bench", key, value: v, version: 1, bytes: key.length + v.length, updatedAt: 0,
        };
        await tx.put(tables.datastoreEntries, row);
      }
    });
  }
  const bytes = heapUsed() - before;
  console.log(`\n### Memory per stored entry, ${n.toLocaleString("en")} small values (~30-byte JSON)\n`);
  console.log("| case | bytes per entry | vs Map |");
  console.log("|---|---:|---:|");
  console.log(`| Map<string, string> of the same keys and values (baseline) | ${Math.round(mapBytes / n)} | 1.00 |`);
  console.log(`| datastore entries (row in its Map, the byOwner index) | ${Math.round(bytes / n)} | ${(bytes / mapBytes).toFixed(2)} |`);
}

// BENCH_PARTS=memory,ordered (default: both).
const parts = (process.env.BENCH_PARTS ?? "memory,ordered").split(",");
if (parts.includes("memory")) await entryMemoryFigures();
if (parts.includes("ordered")) await orderedFigures();

/*
 * The in-memory storage adapter on a leaderboard-shaped ordered index of
 * 1,000,000 entries: build time, memory, score updates, top-10, a page at
 * offset 500,000, rank by count; then get/put of small rows in transactions.
 * Each figure sits next to a baseline measured in the same run: a sorted
 * array (what answers rank/top/offset fastest, but inserts in O(n)) for the
 * index, and a plain Map for rows. `--expose-gc` makes the memory figures exact.
 *
 *   node --expose-gc --conditions=@playfield/source --import tsx bench/storage.bench.ts
 *
 * BENCH_N sets the number of entries (default 1,000,000).
 */
import { defineTable, type Storage } from "@playfield/core";
import { createMemoryStorage } from "../packages/server/src/ports/memory-storage/index.js";
import { seededRandom } from "./lib/seeded-random.js";

const N = Number(process.env.BENCH_N ?? 1_000_000);
const BOARD = "global";

interface Score { id: string; board: string; score: number }
const Scores = defineTable<Score>()({
  name: "bench_scores",
  primaryKey: (row) => row.id,
  indexes: { byScore: { key: (row) => [row.board, row.score] } },
});

interface Doc { id: string; value: number }
const Docs = defineTable<Doc>()({ name: "bench_docs", primaryKey: (row) => row.id, indexes: {} });

const random = seededRandom(42);
const randomScore = () => Math.floor(random() * 1e9);

const gc = (globalThis as { gc?: () => void }).gc;
function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** Mean time per call of `op` in microseconds, after a warm-up. */
async function timePerOp(op: (i: number) => unknown, iterations: number): Promise<number> {
  for (let i = 0; i < Math.min(100, iterations); i++) await op(i);
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await op(i);
  return ((performance.now() - start) * 1000) / iterations;
}

/** Same, for synchronous baselines (no await between calls). */
function timePerOpSync(op: (i: number) => unknown, iterations: number): number {
  for (let i = 0; i < Math.min(100, iterations); i++) op(i);
  const start = performance.now();
  for (let i = 0; i < iterations; i++) op(i);
  return ((performance.now() - start) * 1000) / iterations;
}

const fmtTime = (us: number) => (us >= 1000 ? `${(us / 1000).toFixed(1)} ms` : us >= 10 ? `${us.toFixed(0)} µs` : `${us.toFixed(2)} µs`);
const fmtRate = (us: number) => `${Math.round(1e6 / us).toLocaleString("en")}/s`;
const row = (cells: string[]) => console.log(`| ${cells.join(" | ")} |`);

/** Orders scores as the index does: by score, ties by id. */
const byScoreThenId = (a: Score, b: Score) => a.score - b.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** First position in a sorted array whose entry is not below `probe`. */
function lowerBound(sorted: readonly Score[], probe: Score): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byScoreThenId(sorted[mid]!, probe) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

async function orderedIndex(): Promise<void> {
  const rows: Score[] = Array.from({ length: N }, (_, i) => ({ id: `p${i}`, board: BOARD, score: randomScore() }));

  // Build: N puts in transactions of 10,000; baseline: a Map of the rows plus one sort.
  let before = heapUsed();
  let start = performance.now();
  const storage = createMemoryStorage();
  for (let i = 0; i < N; i += 10_000) {
    await storage.transact(async (tx) => {
      for (const r of rows.slice(i, i + 10_000)) await tx.put(Scores, r);
    });
  }
  const buildMs = performance.now() - start;
  const storageBytes = heapUsed() - before;

  before = heapUsed();
  start = performance.now();
  const map = new Map<string, Score>();
  for (const r of rows) map.set(r.id, r);
  const sorted = [...rows].sort(byScoreThenId);
  const baselineBuildMs = performance.now() - start;
  const baselineBytes = heapUsed() - before;
  // Used after the measurement, so that the collector could not drop it during it.
  if (map.size !== N) throw new Error("baseline map lost rows");

  const n = N.toLocaleString("en");
  console.log(`\n### Ordered index, ${n} entries${gc ? "" : " (run with --expose-gc for exact memory)"}\n`);
  row(["case", "memory storage", "baseline", "baseline figure", "ratio (storage / baseline)"]);
  row(["---", "---:", "---", "---:", "---:"]);
  row([`build (${n} puts, 10,000 per tx)`, `${(buildMs / 1000).toFixed(2)} s`, "Map.set all + one sort", `${(baselineBuildMs / 1000).toFixed(2)} s`, (buildMs / baselineBuildMs).toFixed(2)]);
  row(["memory over the rows", `${(storageBytes / 2 ** 20).toFixed(0)} MB (${(storageBytes / N).toFixed(0)} B/entry)`, "Map + sorted array of the rows", `${(baselineBytes / 2 ** 20).toFixed(0)} MB (${(baselineBytes / N).toFixed(0)} B/entry)`, (storageBytes / baselineBytes).toFixed(2)]);

  // Score update: a new score for a random player (put replaces: delete + insert in the index).
  const updates = 20_000;
  const updateUs = await timePerOp(() => storage.transact(async (tx) => {
    const r = rows[Math.floor(random() * N)]!;
    const next = { ...r, score: randomScore() };
    rows[Number(r.id.slice(1))] = next;
    await tx.put(Scores, next);
  }), updates);
  const arrayUpdateUs = timePerOpSync(() => {
    const r = sorted[Math.floor(random() * N)]!;
    sorted.splice(lowerBound(sorted, r), 1);
    const next = { ...r, score: randomScore() };
    sorted.splice(lowerBound(sorted, next), 0, next);
  }, 1_000);
  row(["score update (put in a tx)", fmtTime(updateUs), "sorted array splice out + in", fmtTime(arrayUpdateUs), (updateUs / arrayUpdateUs).toFixed(3)]);

  const top10Us = await timePerOp(() => storage.transact((tx) => tx.query(Scores, "byScore", { equals: [BOARD], order: "desc", limit: 10 })), 20_000);
  const arrayTop10Us = timePerOpSync(() => sorted.slice(-10).reverse(), 200_000);
  row(["top 10 (query desc, limit 10)", fmtTime(top10Us), "sorted array slice", fmtTime(arrayTop10Us), (top10Us / arrayTop10Us).toFixed(1)]);

  const offset = Math.floor(N / 2);
  const pageUs = await timePerOp(() => storage.transact((tx) => tx.query(Scores, "byScore", { equals: [BOARD], offset, limit: 10 })), 20_000);
  const arrayPageUs = timePerOpSync(() => sorted.slice(offset, offset + 10), 200_000);
  row([`page at offset ${offset.toLocaleString("en")} (limit 10)`, fmtTime(pageUs), "sorted array slice", fmtTime(arrayPageUs), (pageUs / arrayPageUs).toFixed(1)]);

  const rankUs = await timePerOp(() => storage.transact((tx) => tx.count(Scores, "byScore", { equals: [BOARD], range: { gt: randomScore() } })), 20_000);
  const arrayRankUs = timePerOpSync(() => sorted.length - lowerBound(sorted, { id: "\uffff", board: BOARD, score: randomScore() }), 200_000);
  row(["rank (count with range gt)", fmtTime(rankUs), "sorted array binary search", fmtTime(arrayRankUs), (rankUs / arrayRankUs).toFixed(1)]);

  // The same reads without a transaction per call, to show what the tree itself costs.
  const batched = await storage.transact(async (tx) => {
    const reps = 20_000;
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) await tx.query(Scores, "byScore", { equals: [BOARD], offset, limit: 10 });
    const page = ((performance.now() - t0) * 1000) / reps;
    const t1 = performance.now();
    for (let i = 0; i < reps; i++) await tx.count(Scores, "byScore", { equals: [BOARD], range: { gt: randomScore() } });
    return { page, rank: ((performance.now() - t1) * 1000) / reps };
  });
  row([`page at offset ${offset.toLocaleString("en")}, inside one tx`, fmtTime(batched.page), "sorted array slice", fmtTime(arrayPageUs), (batched.page / arrayPageUs).toFixed(1)]);
  row(["rank, inside one tx", fmtTime(batched.rank), "sorted array binary search", fmtTime(arrayRankUs), (batched.rank / arrayRankUs).toFixed(1)]);
  await storage.clear();
}

async function smallRows(storage: Storage): Promise<void> {
  const count = 100_000;
  const ids = Array.from({ length: count }, (_, i) => `d${i}`);
  const map = new Map<string, Doc>();
  await storage.transact(async (tx) => {
    for (const id of ids) await tx.put(Docs, { id, value: 0 });
  });
  for (const id of ids) map.set(id, { id, value: 0 });
  const pick = () => ids[Math.floor(random() * count)]!;

  const mapGetUs = timePerOpSync(() => map.get(pick()), 1_000_000);
  const mapSetUs = timePerOpSync((i) => map.set(pick(), { id: "x", value: i }), 1_000_000);
  const getTxUs = await timePerOp(() => storage.transact((tx) => tx.get(Docs, pick())), 100_000);
  const putTxUs = await timePerOp((i) => storage.transact((tx) => tx.put(Docs, { id: pick(), value: i })), 100_000);
  const getIn = await timePerOp(() => storage.transact(async (tx) => {
    for (let k = 0; k < 100; k++) await tx.get(Docs, pick());
  }), 2_000) / 100;
  const putIn = await timePerOp((i) => storage.transact(async (tx) => {
    for (let k = 0; k < 100; k++) await tx.put(Docs, { id: pick(), value: i });
  }), 2_000) / 100;

  console.log(`\n### Small rows (${count.toLocaleString("en")} in the table)\n`);
  row(["case", "memory storage", "per second", "baseline", "baseline figure", "ratio (storage / baseline)"]);
  row(["---", "---:", "---:", "---", "---:", "---:"]);
  row(["get, one per tx", fmtTime(getTxUs), fmtRate(getTxUs), "Map.get", fmtTime(mapGetUs), (getTxUs / mapGetUs).toFixed(1)]);
  row(["put, one per tx", fmtTime(putTxUs), fmtRate(putTxUs), "Map.set", fmtTime(mapSetUs), (putTxUs / mapSetUs).toFixed(1)]);
  row(["get, 100 per tx", fmtTime(getIn), fmtRate(getIn), "Map.get", fmtTime(mapGetUs), (getIn / mapGetUs).toFixed(1)]);
  row(["put, 100 per tx", fmtTime(putIn), fmtRate(putIn), "Map.set", fmtTime(mapSetUs), (putIn / mapSetUs).toFixed(1)]);
}

console.log(`Node ${process.version}, N = ${N.toLocaleString("en")}`);
await orderedIndex();
await smallRows(createMemoryStorage());

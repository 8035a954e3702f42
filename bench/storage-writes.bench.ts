/*
 * What an overwrite costs the in-memory storage adapter, on a table of
 * 100,000 rows with 3 indexes (one of them unique): a put that changes no
 * index key (only a field no index reads) against a put that changes one
 * key (the score), one put per transaction and 100 per transaction. The
 * baseline, measured in the same run, is a plain Map.set of the same rows,
 * built the same way.
 *
 *   node --conditions=@playfield/source --import tsx bench/storage-writes.bench.ts
 *
 * BENCH_SECONDS sets each measurement's length (default 1.5).
 */
import { defineTable } from "@playfield/core";
import { createMemoryStorage } from "../packages/server/src/ports/memory-storage/index.js";
import { measure, printTable, type Figure } from "./lib/measure.js";
import { seededRandom } from "./lib/seeded-random.js";

const ROWS = 100_000;
const BATCH = 100;

interface Player { id: string; guild: string; name: string; level: number; score: number; note: number }
const Players = defineTable<Player>()({
  name: "bench_players",
  primaryKey: (row) => row.id,
  indexes: {
    byGuild: { key: (row) => [row.guild, row.level] },
    byName: { key: (row) => [row.name], unique: true },
    byScore: { key: (row) => [row.score] },
  },
});

const random = seededRandom(7);
const pick = () => Math.floor(random() * ROWS);

const rows: Player[] = Array.from({ length: ROWS }, (_, i) => ({
  id: `p${i}`,
  guild: `g${i % 500}`,
  name: `name${i}`,
  level: i % 60,
  score: Math.floor(random() * 1e9),
  note: 0,
}));

/** The next version of a row: the same keys (a new note), or a new score. */
const cases: { name: string; next: (row: Player, n: number) => Player }[] = [
  { name: "overwrite, no index key changed", next: (row, n) => ({ ...row, note: n }) },
  { name: "overwrite, one index key changed (score)", next: (row) => ({ ...row, score: Math.floor(random() * 1e9) }) },
];

const storage = createMemoryStorage();
for (let i = 0; i < ROWS; i += 10_000) {
  await storage.transact(async (tx) => {
    for (const row of rows.slice(i, i + 10_000)) await tx.put(Players, row);
  });
}
const map = new Map<string, Player>(rows.map((row) => [row.id, row]));

/** Scales a figure measured per batch to one per put. */
const perPut = (figure: Figure, puts: number): Figure => ({ ...figure, rate: figure.rate * puts });

console.log(`Node ${process.version}, ${ROWS.toLocaleString("en")} rows, 3 indexes (one unique)`);
for (const batch of [1, BATCH]) {
  let n = 0;
  // Builds the rows as the cases do (alternately), but leaves `rows` as the storage holds them.
  const baseline = perPut(await measure("Map.set of the same rows (baseline)", () => {
    for (let k = 0; k < batch; k++, n++) {
      const row = cases[n & 1]!.next(rows[pick()]!, n);
      map.set(row.id, row);
    }
  }), batch);
  const figures = [baseline];
  for (const c of cases) {
    figures.push(perPut(await measure(c.name, () => storage.transact(async (tx) => {
      for (let k = 0; k < batch; k++, n++) {
        const i = pick();
        const row = c.next(rows[i]!, n);
        rows[i] = row;
        await tx.put(Players, row);
      }
    })), batch));
  }
  printTable(`Overwrites, ${batch === 1 ? "one put per transaction" : `${batch} puts per transaction`} (figures per put)`, figures, baseline);
}
if (map.size !== ROWS || (await storage.transact((tx) => tx.count(Players, "byScore"))) !== ROWS) throw new Error("a row was lost");

/**
 * Restoring a seeded world (MemoryServer.restore) against seeding it again,
 * the two ways a test suite can start each case from the same data.
 *
 *   node --conditions=@playfield/source --import tsx bench/snapshot.bench.ts
 */
import { createMemoryServer } from "@playfield/server-memory";
import { medianMs } from "./lib/measure.js";

const rows: string[] = ["| world | restore (ms) | seed again (ms, baseline) | ratio |", "|---|---:|---:|---:|"];

for (const users of [100, 1_000]) {
  const seed = async (server: ReturnType<typeof createMemoryServer>) => {
    for (let i = 0; i < users; i++) await server.seed.user({ username: `player_${i}`, displayName: `Player ${i}` });
  };
  const server = createMemoryServer();
  await seed(server);
  const saved = await server.snapshot();
  const restoreMs = await medianMs(() => server.restore(saved), 11);
  const seedMs = await medianMs(async () => {
    await server.reset();
    await seed(server);
  }, 5);
  rows.push(`| ${users.toLocaleString("en")} users (each with a device) | ${restoreMs.toFixed(2)} | ${seedMs.toFixed(1)} | ${(restoreMs / seedMs).toFixed(3)} |`);
}

console.log(rows.join("\n"));

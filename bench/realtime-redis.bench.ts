/*
 * Cross-process realtime delivery through @playfield/realtime-redis: a
 * payload published by this process reaches a subscriber in another process
 * (bench/lib/redis-echo.ts), which publishes it back; the figure is the
 * round trip (two cross-process deliveries), at a steady 1,000 messages a
 * second. Baseline: the same round trip through the in-process pub/sub.
 *
 *   node --conditions=@playfield/source --import tsx bench/realtime-redis.bench.ts
 *
 * REDIS_URL names the server (default redis://127.0.0.1:6379); keys and
 * channels live under a prefix of their own.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { cpus, loadavg } from "node:os";
import { createLocalPubSub, type RealtimePubSub } from "../packages/server/src/index.js";
import { connectRedisRealtime } from "../packages/realtime-redis/src/index.js";

const url = process.env.REDIS_URL || "redis://127.0.0.1:6379";
const prefix = `bench:${process.pid}:`;
const MESSAGES = 3_000;
const PER_SECOND = 1_000;

/** Round trips of MESSAGES payloads sent at PER_SECOND through `pubsub` (ping out, pong back), in ms. */
async function roundTrips(pubsub: RealtimePubSub): Promise<number[]> {
  const took: number[] = [];
  let done: () => void;
  const finished = new Promise<void>((resolve) => { done = resolve; });
  pubsub.subscribe("pong", (payload) => {
    took.push(performance.now() - Number(JSON.parse(payload).at));
    if (took.length === MESSAGES) done();
  });
  const started = performance.now();
  for (let i = 0; i < MESSAGES; i++) {
    const due = started + (i * 1000) / PER_SECOND;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pubsub.publish("ping", JSON.stringify({ type: "chat_message", text: "hello", at: performance.now() }));
  }
  await finished;
  return took.sort((x, y) => x - y);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (value: number) => `${value.toFixed(3)} ms`;

const local = createLocalPubSub();
local.subscribe("ping", (payload) => local.publish("pong", payload));
const baseline = await roundTrips(local);

const echo = spawn(process.execPath, ["--conditions=@playfield/source", "--import", "tsx", fileURLToPath(new URL("./lib/redis-echo.ts", import.meta.url)), url, prefix], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise<void>((resolve, reject) => {
  createInterface({ input: echo.stdout! }).once("line", () => resolve());
  echo.once("exit", (code) => reject(new Error(`redis-echo exited with ${code}`)));
});
const redis = await connectRedisRealtime({ url, keyPrefix: prefix });
const load = loadavg()[0]!.toFixed(1);
const crossing = await roundTrips(redis.pubsub);
await redis.close();
echo.kill();

console.log(`${MESSAGES} round trips at ${PER_SECOND}/s, small JSON payloads; ${cpus().length} cores, load average ${load} when the Redis run began (the machine is shared: figures are noisy).`);
console.log("");
console.log("| path | p50 | p99 | max | p99 vs baseline |");
console.log("|---|---|---|---|---|");
console.log(`| in-process pub/sub (baseline) | ${ms(pct(baseline, 50))} | ${ms(pct(baseline, 99))} | ${ms(baseline.at(-1)!)} | 1 |`);
console.log(`| Redis, to another process and back | ${ms(pct(crossing, 50))} | ${ms(pct(crossing, 99))} | ${ms(crossing.at(-1)!)} | ${(pct(crossing, 99) / pct(baseline, 99)).toFixed(0)}× |`);
console.log("");
console.log(`One cross-process delivery is about half a round trip: p99 ≈ ${ms(pct(crossing, 99) / 2)} (target < 10 ms).`);

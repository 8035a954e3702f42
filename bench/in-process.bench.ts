/*
 * The in-process handler (no socket): authenticated GetMe through
 * `server.handle`, against a bare fetch handler that parses the JSON body and
 * answers JSON; the same GetMe with what an operator turns on (Prometheus
 * metrics, log lines at info and at debug) against it without, in
 * alternating rounds. Also memory-server start time.
 *
 *   node --conditions=@playfield/source --import tsx bench/in-process.bench.ts
 */
import { loadavg } from "node:os";
import { createLogger, createPrometheusMetrics } from "@playfield/server/node";
import { createMemoryServer, generateSigningKey, type MemoryServer } from "@playfield/server-memory";
import { formatDuration, measure, medianMs, printTable } from "./lib/measure.js";

const server = createMemoryServer({ environment: "test" });
const user = await server.seed.user();
const url = "http://playfield.test/svc.platform.v1.IdentityService/GetMe";
const headers = { "content-type": "application/json", authorization: `Bearer ${user.accessToken}` };

const bare = async (request: Request) => new Response(JSON.stringify({ echo: JSON.parse(await request.text()) as unknown, user: { id: "usr_1", username: "player" } }), { headers: { "content-type": "application/json" } });

const baseline = await measure("bare fetch handler (parse JSON, answer JSON)", async () => {
  const response = await bare(new Request(url, { method: "POST", headers, body: "{}" }));
  await response.text();
});
const getMe = await measure("GetMe through server.handle", async () => {
  const response = await server.handle(new Request(url, { method: "POST", headers, body: "{}" }));
  if (response.status !== 200) throw new Error(await response.text());
  await response.text();
});
printTable("In-process handler: authenticated GetMe", [baseline, getMe], baseline);

// The same user's token on servers that share the keys and the storage: only what watches the calls differs.
const discard = { write: () => undefined };
const observedServers: [string, MemoryServer][] = [
  ["GetMe, nothing watching (baseline)", createMemoryServer({ environment: "test", storage: server.deps.storage, signer: server.deps.signer })],
  ["GetMe, Prometheus metrics", createMemoryServer({ environment: "test", storage: server.deps.storage, signer: server.deps.signer, metrics: createPrometheusMetrics() })],
  ["GetMe, metrics and logs at info (the command's default)", createMemoryServer({
    environment: "test", storage: server.deps.storage, signer: server.deps.signer, metrics: createPrometheusMetrics(), log: createLogger("info", discard),
  })],
  ["GetMe, metrics and logs at debug (a JSON line per call, discarded)", createMemoryServer({
    environment: "test", storage: server.deps.storage, signer: server.deps.signer, metrics: createPrometheusMetrics(), log: createLogger("debug", discard),
  })],
];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const rates = observedServers.map((): number[] => []);
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, [name, observed]] of observedServers.entries()) {
    const figure = await measure(name, async () => {
      const response = await observed.handle(new Request(url, { method: "POST", headers, body: "{}" }));
      if (response.status !== 200) throw new Error(await response.text());
      await response.text();
    }, Number(process.env.BENCH_SECONDS ?? 1.5) / 2);
    rates[i]!.push(figure.rate);
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`\n### GetMe with metrics and logs against without (${ROUNDS} alternating rounds; ratio: median of the per-round ratios)\n`);
console.log(`Four servers on one storage and one signer, differing only in what watches their calls; load average ${loadavg()[0]!.toFixed(1)} at the end.\n`);
console.log("| case | ops/s (median) | per op | vs nothing watching |");
console.log("|---|---:|---:|---:|");
for (const [i, [name]] of observedServers.entries()) {
  const rate = median(rates[i]!);
  const ratio = median(rates[i]!.map((r, round) => r / rates[0]![round]!));
  console.log(`| ${name} | ${Math.round(rate).toLocaleString("en-US")} | ${formatDuration(1000 / rate)} | ${ratio.toFixed(2)} |`);
}

const key = generateSigningKey();
const keyMs = await medianMs(() => generateSigningKey());
const startMs = await medianMs(() => createMemoryServer({ environment: "test", keys: [key] }));
const startWithKeyGenMs = await medianMs(() => createMemoryServer({ environment: "test" }));
console.log("\n### Memory server start (median of 21)\n");
console.log("| case | time | vs generating one Ed25519 key |");
console.log("|---|---:|---:|");
console.log(`| generate one Ed25519 signing key (baseline) | ${formatDuration(keyMs)} | 1.00 |`);
console.log(`| createMemoryServer with given keys | ${formatDuration(startMs)} | ${(startMs / keyMs).toFixed(2)} |`);
console.log(`| createMemoryServer, key generated at start | ${formatDuration(startWithKeyGenMs)} | ${(startWithKeyGenMs / keyMs).toFixed(2)} |`);

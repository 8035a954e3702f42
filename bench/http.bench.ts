/*
 * Authenticated GetMe through the Node server against a bare node:http JSON
 * echo, each in its own process, loaded in turns by the same generator
 * (50 keep-alive connections). Target: GetMe at least 0.7 of the echo.
 *
 *   node --conditions=@playfield/source --import tsx bench/http.bench.ts
 */
import { startChild } from "./lib/child.js";
import { runLoad, type LoadResult } from "./lib/load.js";
import { formatRate } from "./lib/measure.js";

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const echo = await startChild("./echo-server.ts");
const playfield = await startChild("./playfield-server.ts");
const { url, token } = JSON.parse(playfield.firstLine) as { url: string; token: string };

const echoRuns: LoadResult[] = [];
const getMeRuns: LoadResult[] = [];
try {
  // Warm both up, then alternate so that drift on a shared machine hits both alike.
  await runLoad({ url: `${echo.firstLine}/echo`, body: "{}", seconds: 1 });
  await runLoad({ url: `${url}/svc.platform.v1.IdentityService/GetMe`, body: "{}", headers: { authorization: `Bearer ${token}` }, seconds: 1 });
  for (let round = 0; round < 2; round++) {
    echoRuns.push(await runLoad({ url: `${echo.firstLine}/echo`, body: "{}", seconds }));
    getMeRuns.push(await runLoad({ url: `${url}/svc.platform.v1.IdentityService/GetMe`, body: "{}", headers: { authorization: `Bearer ${token}` }, seconds }));
  }
} finally {
  echo.child.kill();
  playfield.child.kill();
}

const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.rate > a.rate ? b : a));
const e = best(echoRuns);
const g = best(getMeRuns);
console.log("\n### HTTP: authenticated GetMe vs bare node:http JSON echo (50 connections)\n");
console.log("| case | req/s | p50 | p99 | errors | vs echo |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const [name, r] of [["bare node:http JSON echo", e], ["GetMe (Bearer token, Playfield Node server)", g]] as const) {
  console.log(`| ${name} | ${formatRate(r.rate)} | ${r.p50Ms.toFixed(2)} ms | ${r.p99Ms.toFixed(2)} ms | ${r.errors} | ${(r.rate / e.rate).toFixed(2)} |`);
}

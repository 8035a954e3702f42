/*
 * Probe (not a bench): a CPU profile of one case of bench/probes/setup.ts with IN_FLIGHT calls in flight
 * (default 50), N calls (default 100,000): self and total time per function, GC included (the profiler
 * itself adds to every figure: compare shares, not µs).
 *   PROBE_ONLY=BuyItem node --conditions=@playfield/source --import tsx bench/probes/cpu.ts
 * PROBE_PLAYERS=50 spreads the calls over 50 players; PROBE_DATABASE_URL runs the server on PostgreSQL (bench/probes/setup.ts).
 */
import { Session } from "node:inspector/promises";
import { findSourceMap } from "node:module";
process.setSourceMapsEnabled(true);
const { call, caseOf, players, server } = await import("./setup.js");
const name = process.env.PROBE_ONLY ?? "BuyItem";
const inFlight = Number(process.env.IN_FLIGHT ?? 50);
const N = Number(process.env.N ?? 100_000);
// With PROBE_PLAYERS, each call is the next player's (their own key, wallet and seller), else the one player's.
const calls = players.length === 0 ? [caseOf(name)] : players.map((cases) => cases.find((c) => c[0] === name)!);
const run = async (n: number) => {
  let left = n;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (left-- > 0) {
      const [, path, body, token] = calls[left % calls.length]!;
      await call(path, body, token);
    }
  }));
};
await run(5000);
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 50 });
await session.post("Profiler.start");
const cpu = process.cpuUsage();
await run(N);
const used = process.cpuUsage(cpu);
const { profile } = await session.post("Profiler.stop") as unknown as { profile: { nodes: PNode[]; samples: number[]; timeDeltas: number[] } };
interface PNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; children?: number[] }
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: PNode) => {
  const f = n.callFrame;
  let line = f.lineNumber + 1, url = f.url;
  const map = url ? findSourceMap(url) : undefined;
  if (map) {
    const e = map.findEntry(f.lineNumber, f.columnNumber) as { originalLine?: number; originalSource?: string };
    if (e.originalLine !== undefined) { line = e.originalLine + 1; url = e.originalSource ?? url; }
  }
  return `${f.functionName || "(anon)"} ${url.replace(/.*\/(packages|node_modules)\//, "")}:${line}`;
};
const self = new Map<string, number>(), total = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  all += dt;
  const n = byId.get(id)!;
  self.set(label(n), (self.get(label(n)) ?? 0) + dt);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (!seen.has(l)) { seen.add(l); total.set(l, (total.get(l) ?? 0) + dt); }
  }
});
console.log(`${name}, ${inFlight} in flight: ${((used.user + used.system) / N).toFixed(1)} µs CPU/call; profile ${(all / N).toFixed(1)} µs/call`);
const top = Number(process.env.TOP ?? 30);
console.log("self:");
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(v / N).toFixed(2).padStart(6)} µs  ${k}`);
console.log("total:");
for (const [k, v] of [...total].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(v / N).toFixed(2).padStart(6)} µs  ${k}`);
await server.close();

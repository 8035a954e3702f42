/*
 * Probe (not a bench): per call of GetMe, Datastore Set and Get, and BuyItem
 * through the server's responder (bench/probes/setup.ts), the bytes allocated
 * (sampling heap profiler, objects collected since included), the bytes kept
 * (live growth between full collections) and µs of CPU (process-wide, GC
 * threads included; best of 5 rounds, 1 and 50 calls in flight). TOP=n lists
 * each case's n largest allocation sites.
 *
 *   node --expose-gc --conditions=@playfield/source --import tsx bench/probes/calls.ts
 *   PROBE_ONLY=BuyItem TOP=30 node --expose-gc --conditions=@playfield/source --import tsx bench/probes/calls.ts
 */
import { Session } from "node:inspector/promises";
import { findSourceMap } from "node:module";
import v8 from "node:v8";
import { call, cases, server } from "./setup.js";

process.setSourceMapsEnabled(true);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with --expose-gc");
const only = process.env.PROBE_ONLY?.split(",");
const top = Number(process.env.TOP ?? 0);
const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");

interface ProfileNode { callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; selfSize: number; children: ProfileNode[] }

/** A profile frame as `function file:line`, in the TypeScript source where a source map says. */
function frameOf(node: ProfileNode): string {
  const f = node.callFrame;
  let line = f.lineNumber + 1, url = f.url;
  const entry = url ? findSourceMap(url)?.findEntry(f.lineNumber, f.columnNumber) as { originalLine?: number; originalSource?: string } | undefined : undefined;
  if (entry?.originalLine !== undefined) {
    line = entry.originalLine + 1;
    url = entry.originalSource ?? url;
  }
  return `${f.functionName || "(anon)"} ${url.replace(/.*\/(packages|node_modules)\//, "")}:${line}`;
}

/** Bytes allocated by `n` runs of `run`, in all and by site (the site and its two callers). */
async function allocation(n: number, run: () => Promise<unknown>): Promise<{ total: number; sites: Map<string, number> }> {
  await session.post("HeapProfiler.startSampling", { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  for (let i = 0; i < n; i++) await run();
  const { profile } = await session.post("HeapProfiler.stopSampling") as unknown as { profile: { head: ProfileNode } };
  const sites = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode, stack: string[]) => {
    const here = frameOf(node);
    if (node.selfSize) {
      const key = [here, ...stack.slice(-2).reverse()].join(" <- ");
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, [...stack, here]);
  };
  walk(profile.head, []);
  return { total, sites };
}

for (const [name, path, body, token] of cases) {
  if (only && !only.includes(name)) continue;
  const run = () => call(path, body, token);
  for (let i = 0; i < 3000; i++) await run();
  const N = 20_000;
  const allocated = await allocation(N, run);
  // Kept: what N calls leave live, between two full collections.
  gc(); gc();
  const before = v8.getHeapStatistics().used_heap_size;
  for (let i = 0; i < N; i++) await run();
  gc(); gc();
  const kept = v8.getHeapStatistics().used_heap_size - before;
  const cpuOf = async (inFlight: number) => {
    let best = Infinity;
    for (let round = 0; round < 5; round++) {
      const cpu = process.cpuUsage();
      let left = N;
      await Promise.all(Array.from({ length: inFlight }, async () => {
        while (left-- > 0) await run();
      }));
      const used = process.cpuUsage(cpu);
      best = Math.min(best, (used.user + used.system) / N);
    }
    return best;
  };
  const one = await cpuOf(1);
  const fifty = await cpuOf(50);
  console.log(`${name.padEnd(8)} allocated ${(allocated.total / N / 1024).toFixed(1)} KB/call, kept ${(kept / N).toFixed(0)} B/call, CPU ${one.toFixed(1)} µs/call (1 in flight), ${fifty.toFixed(1)} µs/call (50 in flight)`);
  for (const [site, bytes] of [...allocated.sites].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${(bytes / N).toFixed(0).padStart(6)} B  ${site}`);
}
session.disconnect();
await server.close();

/**
 * Script runtime figures: script-ticks per second (100 and 1,000 scripts,
 * hashing included) against bare QuickJS calls of the same handler, the
 * cost of metering, memory per loaded script and the load time of a
 * 1,000-line script; the same ticks with the engines in worker threads
 * (what the command line runs) against the engines in this thread.
 *
 *   node --conditions=@playfield/source --import tsx bench/script-runtime.bench.ts
 */
import { createScriptRuntime } from "@playfield/script-runtime";
import { workerEngines } from "@playfield/script-runtime/node";
import { ticksPerSecond } from "./lib/script-ticks.js";
import { newQuickJSWASMModuleFromVariant, RELEASE_SYNC } from "quickjs-emscripten";

const SMALL = "export default { init() { return { n: 0 } }, onTick() { this.state.n += 1 } }";
const rows: string[] = ["| figure | value | baseline | ratio |", "|---|---|---|---|"];


/** The same onTick and JSON.stringify of the state, called from the host in one bare QuickJS context: no sandbox, fuel or hashing. */
async function bareCallsPerSecond(calls: number): Promise<number> {
  const quickjs = await newQuickJSWASMModuleFromVariant(RELEASE_SYNC);
  const context = quickjs.newContext();
  const tick = context.unwrapResult(context.evalCode("const self = { state: { n: 0 } }; (function () { self.state.n += 1; return JSON.stringify(self.state) })"));
  let best = 0;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    for (let i = 0; i < calls; i++) {
      const result = context.unwrapResult(context.callFunction(tick, context.undefined));
      context.getString(result);
      result.dispose();
    }
    best = Math.max(best, calls / ((performance.now() - started) / 1000));
  }
  tick.dispose();
  context.dispose();
  return best;
}

const t100 = await ticksPerSecond(SMALL, 100, 200);
const t1000 = await ticksPerSecond(SMALL, 1000, 30);
const bareCalls = await bareCallsPerSecond(20_000);
rows.push(`| script-ticks/s, 100 scripts (target 50,000) | ${t100.toFixed(0)} | ${bareCalls.toFixed(0)} bare QuickJS calls/s | ${(t100 / bareCalls).toFixed(2)} |`);
rows.push(`| script-ticks/s, 1,000 scripts (target 50,000) | ${t1000.toFixed(0)} | ${bareCalls.toFixed(0)} bare QuickJS calls/s | ${(t1000 / bareCalls).toFixed(2)} |`);

// The same ticks with the engines in worker threads: one round trip to a worker per script and tick.
const w100 = await ticksPerSecond(SMALL, 100, 200, "js", workerEngines());
const w1000 = await ticksPerSecond(SMALL, 1000, 30, "js", workerEngines());
rows.push(`| script-ticks/s in worker threads, 100 scripts | ${w100.toFixed(0)} | ${t100.toFixed(0)} in this thread | ${(w100 / t100).toFixed(2)} |`);
rows.push(`| script-ticks/s in worker threads, 1,000 scripts | ${w1000.toFixed(0)} | ${t1000.toFixed(0)} in this thread | ${(w1000 / t1000).toFixed(2)} |`);

// Metering: the same CPU-heavy work metered by the runtime vs. a bare QuickJS context.
const HEAVY = "let x = 0; for (let i = 0; i < 2000000; i++) { x = (x + i * 7) % 1000003 } this.state.x = x;";
const runtime = createScriptRuntime({ config: { fuel_per_tick: 1_000_000_000 } });
await runtime.run("script.load", { name: "heavy", source: `export default { onTick() { ${HEAVY} } }` });
await runtime.step(1);
let started = performance.now();
await runtime.step(5);
const metered = (performance.now() - started) / 5;
await runtime.dispose();
const quickjs = await newQuickJSWASMModuleFromVariant(RELEASE_SYNC);
const bare = quickjs.newContext();
bare.evalCode("globalThis.run = function () { const self = { state: {} }; (function () { " + HEAVY + " }).call(self); return JSON.stringify(self.state) }").dispose();
bare.evalCode("run()").dispose();
started = performance.now();
for (let i = 0; i < 5; i++) bare.evalCode("run()").dispose();
const unmetered = (performance.now() - started) / 5;
bare.dispose();
rows.push(`| CPU-heavy handler, metered (ms) | ${metered.toFixed(1)} | ${unmetered.toFixed(1)} unmetered | ${(metered / unmetered).toFixed(2)} |`);

// Memory per loaded script.
globalThis.gc?.();
const before = process.memoryUsage().rss;
const many = createScriptRuntime({ config: { memory_limit_bytes: 1024 * 1024 } });
for (let i = 0; i < 500; i++) await many.run("script.load", { name: `m${i}`, source: SMALL });
await many.step(1);
globalThis.gc?.();
const perScript = (process.memoryUsage().rss - before) / 500;
rows.push(`| resident memory per loaded script (KiB) | ${(perScript / 1024).toFixed(0)} | 330 (one module per script) | ${(perScript / 1024 / 330).toFixed(2)} |`);
await many.dispose();

// isolation "script": a cell (a QuickJS module and its memory) per script, for a byte cap of its own.
globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
const isolated = createScriptRuntime({ config: { isolation: "script", memory_limit_bytes: 1024 * 1024 } });
let loadStarted = performance.now();
for (let i = 0; i < 50; i++) await isolated.run("script.load", { name: `i${i}`, source: SMALL });
await isolated.step(1);
const isolatedLoadMs = (performance.now() - loadStarted) / 50;
globalThis.gc?.();
const isolatedPerScript = (process.memoryUsage().rss - rssBefore) / 50;
await isolated.dispose();
rows.push(`| isolation "script": resident memory per loaded script (KiB) | ${(isolatedPerScript / 1024).toFixed(0)} | ${(perScript / 1024).toFixed(0)} shared cells | ${(isolatedPerScript / perScript).toFixed(1)} |`);
const shared = createScriptRuntime({ config: { memory_limit_bytes: 1024 * 1024 } });
loadStarted = performance.now();
for (let i = 0; i < 50; i++) await shared.run("script.load", { name: `s${i}`, source: SMALL });
await shared.step(1);
const sharedLoadMs = (performance.now() - loadStarted) / 50;
await shared.dispose();
rows.push(`| isolation "script": load + first tick per script (ms) | ${isolatedLoadMs.toFixed(2)} | ${sharedLoadMs.toFixed(2)} shared cells | ${(isolatedLoadMs / sharedLoadMs).toFixed(1)} |`);

// Load time of a 1,000-line script.
const lines = ["export default {", "  init() { return { total: 0 } },", "  onTick() { this.state.total += f0(1) },", "};"];
for (let i = 0; i < 996; i++) lines.push(`function f${i}(x) { return x + ${i} > 1e9 ? 0 : ${i === 995 ? "x" : `f${i + 1}(x)`}; }`);
const big = lines.join("\n");
const loader = createScriptRuntime();
await loader.run("script.load", { name: "warm", source: SMALL });
await loader.step(1);
started = performance.now();
await loader.run("script.load", { name: "big", source: big });
await loader.step(1);
const loadMs = performance.now() - started;
await loader.run("script.load", { name: "small", source: SMALL });
started = performance.now();
await loader.step(1);
const smallMs = performance.now() - started;
rows.push(`| load + first tick of a 1,000-line script (ms) | ${loadMs.toFixed(1)} | ${smallMs.toFixed(1)} (1-line script) | ${(loadMs / smallMs).toFixed(1)} |`);
await loader.dispose();

console.log(rows.join("\n"));

/**
 * Python script figures beside JavaScript ones, measured in the same run:
 * script-ticks per second with 100 and 1,000 scripts (target: Python at
 * least 0.5 of JavaScript), a CPU-heavy handler metered (the rewritten
 * wasm) against the same rewrite without fuel probes, calls per second of a
 * trivial handler, start time and memory per script.
 *
 *   node --expose-gc --conditions=@playfield/source --import tsx bench/script-python.bench.ts
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { createRequire } from "node:module";
import { createScriptRuntime } from "@playfield/script-runtime";
import { ticksPerSecond } from "./lib/script-ticks.js";
import { pythonEngineModule } from "../packages/script-runtime/src/python/engine-module.js";
import { createMicroPython } from "../packages/script-runtime/src/python/micropython-instance.js";
import { rewriteMicroPython } from "../packages/script-runtime/src/python/engine-rewrite.js";

const JS = "export default { init() { return { n: 0 } }, onTick() { this.state.n += 1 } }";
const PY = "def init():\n    return {\"n\": 0}\n\ndef on_tick(self, dt):\n    self.state[\"n\"] += 1\n";
const loadAtStart = loadavg()[0]!;
const rows: string[] = ["| figure | Python | JavaScript (same run) | Python / JavaScript |", "|---|---|---|---|"];
const ratio = (py: number, js: number) => (py / js).toFixed(2);



/** Load (and first tick) time per script and resident memory per loaded script, over `count` scripts. */
async function loadAndMemory(language: "js" | "py", count: number): Promise<{ ms: number; kib: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  const runtime = createScriptRuntime({ config: { memory_limit_bytes: 1024 * 1024 } });
  const started = performance.now();
  for (let i = 0; i < count; i++) await runtime.run("script.load", { name: `m${i}`, source: language === "py" ? PY : JS, language });
  await runtime.step(1);
  const ms = (performance.now() - started) / count;
  globalThis.gc?.();
  const kib = (process.memoryUsage().rss - before) / count / 1024;
  await runtime.dispose();
  return { ms, kib };
}
// Measured first, in a fresh process (memory freed by earlier runs would hide growth); each engine's first compile is paid before.
await loadAndMemory("js", 1);
const jsLoad = await loadAndMemory("js", 500);
await loadAndMemory("py", 1);
const pyLoad = await loadAndMemory("py", 500);
rows.push(`| load + first tick per script (ms) | ${pyLoad.ms.toFixed(2)} | ${jsLoad.ms.toFixed(2)} | ${ratio(pyLoad.ms, jsLoad.ms)} |`);
rows.push(`| resident memory per loaded script (KiB) | ${pyLoad.kib.toFixed(0)} | ${jsLoad.kib.toFixed(0)} | ${ratio(pyLoad.kib, jsLoad.kib)} |`);

// Python and JavaScript alternate, twice each, the best of each kept: on a shared machine the load changes between runs.
for (const [count, ticks] of [[100, 200], [1000, 30]] as const) {
  let py = 0;
  let js = 0;
  for (let round = 0; round < 2; round++) {
    py = Math.max(py, await ticksPerSecond(PY, count, ticks, "py"));
    js = Math.max(js, await ticksPerSecond(JS, count, ticks));
  }
  rows.push(`| script-ticks/s, ${count.toLocaleString("en")} scripts | ${py.toFixed(0)} | ${js.toFixed(0)} | ${ratio(py, js)} |`);
}

// A CPU-heavy Python handler body: metered (the runtime's wasm) against the same rewrite without fuel probes, both through this loader.
const HEAVY = "x = 0\nfor i in range(300000):\n    x = (x + i * 7) % 1000003\nd = {}\nfor i in range(20000):\n    d[str(i)] = i\ns = sorted(d.keys())\n";
const options = { memoryLimitBytes: 64 << 20, heapBytes: 1 << 20, pystackBytes: 16 << 10, nowMs: () => 0, randomU32: () => 1, outputCapBytes: 0 };
const shipped = readFileSync(createRequire(import.meta.url).resolve("@micropython/micropython-webassembly-pyscript/micropython.wasm"));
const unmeteredModule = new WebAssembly.Module(rewriteMicroPython(shipped, { fuel: false }) as Uint8Array<ArrayBuffer>);
const rewritten = await pythonEngineModule();
const heavyMs = (module: WebAssembly.Module) => {
  let best = Infinity;
  for (let run = 0; run < 5; run++) {
    const mp = createMicroPython(module, options);
    mp.fuel = 2 ** 30;
    const started = performance.now();
    mp.exec(HEAVY);
    best = Math.min(best, performance.now() - started);
  }
  return best;
};
const metered = heavyMs(rewritten);
const unmetered = heavyMs(unmeteredModule);
const probe = createMicroPython(rewritten, options);
probe.fuel = 2 ** 30;
probe.exec(HEAVY);
const heavyFuel = 2 ** 30 - probe.fuel;
rows.push(`| CPU-heavy handler (ms), metered / the same rewrite without fuel | ${metered.toFixed(1)} | ${unmetered.toFixed(1)} (no fuel) | ${ratio(metered, unmetered)} |`);
rows.push(`| fuel units of that handler; ns per unit | ${heavyFuel} | ${((metered * 1e6) / heavyFuel).toFixed(1)} ns | |`);

// Start time of a bare interpreter (instantiate + init) and calls per second of a trivial function, in one instance.
let startBest = Infinity;
for (let run = 0; run < 20; run++) {
  const started = performance.now();
  createMicroPython(rewritten, options);
  startBest = Math.min(startBest, performance.now() - started);
}
const mp = createMicroPython(rewritten, options);
mp.fuel = 2 ** 30;
mp.exec("def tick(n):\n    return n + 1\n");
const tick = mp.global("tick");
if (tick === null || typeof tick !== "object") throw new Error("no tick");
let callsBest = 0;
for (let run = 0; run < 3; run++) {
  const started = performance.now();
  for (let i = 0; i < 50_000; i++) { mp.fuel = 1_000_000; mp.call(tick.ref, [i]); }
  callsBest = Math.max(callsBest, 50_000 / ((performance.now() - started) / 1000));
}
rows.push(`| a new interpreter: instantiate + init (ms) | ${startBest.toFixed(2)} | | |`);
rows.push(`| calls/s of a trivial Python function from the host | ${callsBest.toFixed(0)} | | |`);

console.log(rows.join("\n"));
console.log(`\nLoad average (1 min): ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end, on ${cpus().length} CPUs shared with other work: every figure moves with it, the ratios less.`);

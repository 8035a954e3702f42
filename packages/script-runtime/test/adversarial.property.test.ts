import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import type { ScriptList } from "../src/index.js";
import { MAX_TEXT_CHARS } from "../src/runtime/bounded-text.js";
import { COUNTER, list, newRuntime } from "./helpers.js";

/**
 * The runtime's own adversarial suite (issue 30): generated hostile
 * scripts, each a mix of the ways a script tried to escape the meter —
 * natives on huge array-likes, getters, setters and traps on thrown values
 * and on the state, huge messages, deep recursion, regular expressions,
 * forged call times — loaded beside a counter. Every step must answer
 * within a wall bound, the hostile script's fault must be reported with a
 * bounded text, the counter must keep its ticks, the host's memory must
 * stay bounded, and two runtimes must give the same chain.
 */
const LENGTHS = [1e6, 1e8, 2 ** 32, 2 ** 53 - 1];
const ARRAY_METHODS = ["indexOf", "includes", "lastIndexOf", "join", "reverse", "copyWithin", "fill", "forEach", "map", "some", "reduce", "sort"];

const jsFragment = fc.oneof(
  fc.tuple(fc.constantFrom(...ARRAY_METHODS), fc.constantFrom(...LENGTHS)).map(([m, n]) => `[].${m}.call({ length: ${n} }, (a) => a, 0);`),
  fc.constantFrom(...LENGTHS).map((n) => `Array.from({ length: ${n} });`),
  fc.integer({ min: 10, max: 22 }).map((k) => `{ let s = "m"; for (let i = 0; i < ${k}; i++) s += s; throw new Error(s); }`),
  fc.constantFrom("name", "message").map((key) => `throw Object.defineProperty(new Error("x"), "${key}", { get() { for (;;) {} } });`),
  fc.constant(`throw new Proxy(new Error("x"), { getPrototypeOf() { for (;;) {} }, get() { for (;;) {} } });`),
  fc.constant(`delete this.state; Object.defineProperty(Object.getPrototypeOf(this), "state", { get() { return {} }, set(v) { for (;;) {} }, configurable: true }); throw new Error("x");`),
  fc.constant(`const f = (n) => f(n + 1) + 1; f(0);`),
  fc.integer({ min: 20, max: 40 }).map((n) => `/^(a+)+$/.test("a".repeat(${n}) + "b");`),
  fc.constant(`this.state.when = [Date.parse("2021-03-14T02:30:00"), new Date(2021, 2, 14).getYear()];`),
  fc.integer({ min: 1, max: 4000 }).map((bits) => `this.state.big = String((1n << ${bits}n) * 3n).length;`),
);

const pyFragment = fc.oneof(
  fc.integer({ min: 10, max: 3000 }).map((n) => `re.match('(a|b)*c', 'a' * ${n} + 'c')`),
  fc.constant("re.match('(a*)*c', 'aaac')"),
  fc.constant("type(self).state = property(lambda s: {}, lambda s, v: [0 for i in range(10 ** 7)])\n    raise ValueError('x')"),
  fc.integer({ min: 100, max: 20000 }).map((n) => `raise ValueError('y' * ${n})`),
  fc.constant("def f(n):\n        return f(n + 1)\n    f(0)"),
  fc.constant("while True:\n        pass"),
);

/** A hostile script: a few fragments in one handler, then a state change (rolled back if any fragment faulted). */
const hostile = fc.oneof(
  fc.array(jsFragment, { minLength: 1, maxLength: 3 }).map((parts) => ({
    language: "js" as const,
    source: `export default { init() { return { kept: 1 } }, onTick() { ${parts.join(" ")} this.state.done = true } }`,
  })),
  fc.array(pyFragment, { minLength: 1, maxLength: 2 }).map((parts) => ({
    language: "py" as const,
    source: `import re\ndef init():\n    return {'kept': 1}\ndef on_tick(self, dt):\n${parts.map((p) => `    ${p}`).join("\n")}\n    self.state['done'] = True\n`,
  })),
);

/** Wall time a step of a few hostile scripts may take on a shared 2-core machine: each stops within its fuel, far under this. */
const STEP_BOUND_MS = 4000;
const TICKS = 2;

async function runOnce(scripts: { language: "js" | "py"; source: string }[]): Promise<ScriptList> {
  const runtime = newRuntime({ config: { watchdog_ms: 0 } });
  await runtime.run("script.load", { name: "counter", source: COUNTER });
  for (const [i, s] of scripts.entries()) await runtime.run("script.load", { name: `hostile${i}`, language: s.language, source: s.source });
  for (let t = 0; t < TICKS; t++) {
    const started = performance.now();
    await runtime.run("runtime.step", { ticks: 1 });
    expect(performance.now() - started, "one step").toBeLessThan(STEP_BOUND_MS);
  }
  const listed = await list(runtime);
  await runtime.dispose();
  return listed;
}

describe("adversarial scripts (generated)", () => {
  it("should answer every step in bounded time, report faults in bounded text, keep the neighbour's ticks and the host's memory, and repeat the same chain", async () => {
    const rssBefore = process.memoryUsage().rss;
    await fc.assert(fc.asyncProperty(fc.array(hostile, { minLength: 1, maxLength: 3 }), async (scripts) => {
      const first = await runOnce(scripts);
      const second = await runOnce(scripts);
      expect(second.chain, "the same chain in two runtimes").toBe(first.chain);
      expect(second.scripts).toEqual(first.scripts);
      const counter = first.scripts.find((s) => s.name === "counter");
      expect(counter).toMatchObject({ faults: 0, state_hash: stateHash(`{"n":${TICKS}}`) });
      for (const script of first.scripts) {
        expect(script.fuel_used).toBeLessThanOrEqual(script.fuel_per_tick);
        if (script.last_fault !== null) expect(script.last_fault.length).toBeLessThanOrEqual(MAX_TEXT_CHARS + 16);
        // A faulted handler's state is rolled back: only a clean one adds "done".
        if (script.name !== "counter" && script.faults >= TICKS) expect(script.state_hash).toBe(stateHash('{"kept":1}'));
      }
      for (const line of first.log) expect(line.length).toBeLessThanOrEqual(MAX_TEXT_CHARS + 64);
      expect(process.memoryUsage().rss - rssBefore, "host memory").toBeLessThan(1024 * 1024 * 1024);
    }), { numRuns: 25, endOnFailure: true });
  }, 120_000);
});

import { describe, expect, it } from "vitest";
import { entry, newRuntime } from "./helpers.js";

/**
 * After a fault the host describes the error and rolls the state back. No
 * script code may run there for free: each hostile script below marks
 * `touched` when its code runs outside its handler, then loops. Either that
 * code never runs, or it runs on the script's own fuel and the faulting
 * tick is charged in full.
 */
const JS_CASES: Record<string, string> = {
  nameGetter: "throw Object.defineProperty(new Error('x'), 'name', { get() { touched = true; for (;;) {} } })",
  messageGetter: "const e = new Error('x'); Object.defineProperty(e, 'message', { get() { touched = true; for (;;) {} } }); throw e",
  inheritedGetter: "class Loud extends Error { get name() { touched = true; for (;;) {} } }; throw new Loud('x')",
  proxyTrap: "throw new Proxy(new Error('x'), { getPrototypeOf() { touched = true; for (;;) {} }, get() { touched = true; for (;;) {} }, getOwnPropertyDescriptor() { touched = true; for (;;) {} } })",
  toStringOfValue: "throw { toString() { touched = true; for (;;) {} } }",
  stateSetter: "delete this.state; Object.defineProperty(Object.getPrototypeOf(this), 'state', { get() { return {} }, set(v) { touched = true; for (;;) {} }, configurable: true }); throw new Error('x')",
};

describe("no script code outside the metered call", () => {
  it("should never run a JavaScript script's getters, traps or setters for free while describing its fault or rolling back", async () => {
    const runtime = newRuntime();
    for (const [name, body] of Object.entries(JS_CASES)) {
      const source = `let touched = false; let tick = 0;
        export default { onTick() { tick += 1; if (tick === 1) { ${body} } this.state.touched = touched; this.state.tick = tick } }`;
      await runtime.run("script.load", { name, source });
    }
    await runtime.step(1);
    const first = new Map<string, { fuel: number; fault: string | null }>();
    for (const name of Object.keys(JS_CASES)) {
      const e = await entry(runtime, name);
      first.set(name, { fuel: e.fuel_used, fault: e.last_fault });
    }
    await runtime.step(1);
    for (const name of Object.keys(JS_CASES)) {
      const { fuel, fault } = first.get(name)!;
      expect(fault, name).toMatch(/^onTick: /);
      const after = await runtime.run("script.list") as { scripts: { name: string; state_hash: string }[] };
      expect(after.scripts.find((s) => s.name === name), name).toBeDefined();
      const state = (await stateOf(runtime, name));
      if (state.touched) expect(fuel, `${name} ran code outside its handler: it must be charged`).toBe(200_000);
    }
  }, 60_000);

  it("should never run a Python script's state setter for free while rolling back", async () => {
    const source = [
      "touched = [False]",
      "ticks = [0]",
      "def loop(s, v):",
      "    touched[0] = True",
      "    for i in range(2000000):",
      "        pass",
      "def on_tick(self, dt):",
      "    ticks[0] += 1",
      "    if ticks[0] == 1:",
      "        type(self).state = property(lambda s: {}, loop)",
      "        raise ValueError('x')",
      "    print('touched' if touched[0] else 'untouched')",
    ].join("\n");
    const lines: string[] = [];
    const withConsole = newRuntime({ onConsole: (_s, _l, text) => lines.push(text) });
    await withConsole.run("script.load", { name: "setter", language: "py", source });
    await withConsole.step(1);
    const fuel = (await entry(withConsole, "setter")).fuel_used;
    await withConsole.step(1);
    if (lines[0] !== "untouched") expect(fuel, "the setter ran after the handler: it must be charged").toBe(200_000);
  }, 60_000);
});

/** A script's state, read back through its state hash's source: the runtime keeps it as canonical JSON. */
async function stateOf(runtime: ReturnType<typeof newRuntime>, name: string): Promise<{ touched?: boolean }> {
  const { stateHash } = await import("../src/index.js");
  const hash = (await entry(runtime, name)).state_hash;
  for (const touched of [true, false]) {
    if (stateHash(JSON.stringify({ tick: 2, touched })) === hash) return { touched };
  }
  throw new Error(`${name}: its state is neither touched nor untouched`);
}

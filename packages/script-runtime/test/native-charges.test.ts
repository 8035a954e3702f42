import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import { COUNTER, entry, list, newRuntime } from "./helpers.js";

/**
 * Built-ins run over array-likes whose length says what they will touch:
 * each is charged before it runs, so a script asking for more than its
 * fuel stops at once instead of running natively for seconds (or, at
 * 2**53 - 1, for ever). Each case here ran 1–2 s of native work a call
 * before the charge came first.
 */
const ARRAY_LIKES: Record<string, string> = {
  indexOf: "[].indexOf.call(big, 1)",
  includes: "[].includes.call(big, 1)",
  lastIndexOf: "[].lastIndexOf.call(big, 1)",
  join: "[].join.call(big, '')",
  reverse: "[].reverse.call(big)",
  copyWithin: "[].copyWithin.call(big, 0, 1)",
  fill: "[].fill.call(big, 1)",
  forEach: "[].forEach.call(big, () => {})",
  map: "[].map.call(big, (x) => x)",
  some: "[].some.call(big, (x) => x)",
  reduce: "[].reduce.call(big, (a) => a, 0)",
  sort: "[].sort.call(big)",
  from: "Array.from(big)",
  sparse: "new Array(1e8).forEach(() => {})",
  sparseJoin: "new Array(1e8).join('')",
};

describe("built-ins on array-likes are charged before they run", () => {
  it("should stop each call at once with out of fuel, even at a length of 2**53 - 1, and keep its neighbours' ticks", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "good", source: COUNTER });
    for (const [name, call] of Object.entries(ARRAY_LIKES)) {
      await runtime.run("script.load", { name, source: `const big = { length: 1e8 }; const endless = { length: 2 ** 53 - 1 };
        export default { init() { return { kept: 1 } }, onTick() { ${call}; ${call.replace("big", "endless")}; this.state.kept = 2 } }` });
    }
    await runtime.step(1); // the loads
    const started = performance.now();
    await runtime.step(1);
    const took = performance.now() - started;
    const listed = await list(runtime);
    for (const name of Object.keys(ARRAY_LIKES)) {
      const script = listed.scripts.find((s) => s.name === name);
      expect(script?.last_fault, name).toBe("onTick: out of fuel (fuel_per_tick 200000)");
      expect(script?.fuel_used, name).toBe(200_000);
      expect(script?.state_hash, name).toBe(stateHash('{"kept":1}'));
    }
    expect(await entry(runtime, "good")).toMatchObject({ faults: 0, state_hash: stateHash('{"n":2}') });
    // Fifteen scripts, each stopped before its native work (which took 1–2 s each): one tick of all of them is quick.
    expect(took).toBeLessThan(1500);
  }, 60_000);

  it("should charge a catching script all the same: the fault stands when it swallows the error", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "swallow", source: "export default { onTick() { try { [].indexOf.call({ length: 2 ** 53 - 1 }, 1) } catch (e) {} this.state.after = true } }" });
    await runtime.step(1);
    expect(await entry(runtime, "swallow")).toMatchObject({ faults: 1, last_fault: "onTick: out of fuel (fuel_per_tick 200000)", fuel_used: 200_000, state_hash: stateHash("{}") });
  });

  it("should still run small calls on array-likes", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "small", source: "export default { onTick() { const a = { length: 3, 0: 'a', 1: 'b', 2: 'c' }; this.state = [[].indexOf.call(a, 'b'), [].join.call(a, '-'), Array.from(a).length, [].map.call(a, (x) => x + x)] } }" });
    await runtime.step(1);
    expect(await entry(runtime, "small")).toMatchObject({ faults: 0, state_hash: stateHash('[1,"a-b-c",3,["aa","bb","cc"]]') });
  });

  // Charged per call by the subject, split/replace/matchAll would cost ~2,000,000 units here (a call per match).
  it("should charge split, replace and matchAll with a regular expression by their subject, not once per match", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "text", source: "export default { onTick() { const s = 'a,'.repeat(1000); this.state = [s.split(/,/).length, s.replace(/,/g, ';').length, [...s.matchAll(/,/g)].length] } }" });
    await runtime.step(1);
    const text = await entry(runtime, "text");
    expect(text.last_fault).toBeNull();
    expect(text.state_hash).toBe(stateHash("[1001,2000,1000]"));
  });
});

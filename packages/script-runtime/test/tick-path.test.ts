import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import { entry, newRuntime } from "./helpers.js";

describe("runtime.step (one call per script per tick)", () => {
  it("should give the hash of the state each tick leaves, whether it changed, changed back or stayed", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "toggle", source: "export default { init() { return { n: 0 } }, onTick() { this.state.n = 1 - this.state.n } }" });
    await runtime.run("script.load", { name: "still", source: "export default { init() { return { n: 7 } }, onTick() { this.state.n = 7 } }" });
    for (let tick = 1; tick <= 4; tick++) {
      await runtime.step(1);
      expect((await entry(runtime, "toggle")).state_hash, `tick ${tick}`).toBe(stateHash(`{"n":${tick % 2}}`));
      expect((await entry(runtime, "still")).state_hash, `tick ${tick}`).toBe(stateHash('{"n":7}'));
    }
  });

  it("should compare later ticks with the state a fault rolled back to", async () => {
    const runtime = newRuntime();
    const source = `let calls = 0;
export default { init() { return { n: 0 } }, onTick() { calls += 1; this.state.n = calls === 2 ? 99 : Math.min(calls, 3); if (calls === 2) throw new Error("boom") } }`;
    await runtime.run("script.load", { name: "s", source });
    const hashes: string[] = [];
    for (let tick = 1; tick <= 4; tick++) {
      await runtime.step(1);
      hashes.push((await entry(runtime, "s")).state_hash);
    }
    expect(hashes).toEqual([stateHash('{"n":1}'), stateHash('{"n":1}'), stateHash('{"n":3}'), stateHash('{"n":3}')]);
    expect(await entry(runtime, "s")).toMatchObject({ faults: 1, last_fault: "onTick: Error: boom" });
  });

  it("should run due timers before onTick and charge each script only its own fuel", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "timed", source: "export default { init() { return { log: [] } }, onLoad() { setTimeout(() => this.state.log.push('timer'), 60) }, onTick() { this.state.log.push('tick') } }" });
    await runtime.run("script.load", { name: "busy", source: "export default { onTick() { let x = 0; for (let i = 0; i < 10000; i++) x += i; this.state.x = x } }" });
    await runtime.run("script.load", { name: "idle", source: "export default { onTick() {} }" });
    await runtime.step(2);
    expect((await entry(runtime, "timed")).state_hash).toBe(stateHash('{"log":["tick","timer","tick"]}'));
    const [busy, idle] = [await entry(runtime, "busy"), await entry(runtime, "idle")];
    expect(busy.fuel_used).toBeGreaterThan(10_000);
    expect(idle.fuel_used).toBeGreaterThan(0);
    expect(idle.fuel_used).toBeLessThan(1_000);
  });

  it("should keep objects by their own data, as JSON.stringify does: a class instance, and a shared object in each place", async () => {
    const runtime = newRuntime();
    const source = `class Point { constructor(x) { this.x = x } get twice() { return this.x * 2 } }
export default { onTick() { const shared = { k: 1 }; this.state = { p: new Point(3), a: shared, b: [shared] } } }`;
    await runtime.run("script.load", { name: "s", source });
    await runtime.step(1);
    expect(await entry(runtime, "s")).toMatchObject({ faults: 0, state_hash: stateHash('{"a":{"k":1},"b":[{"k":1}],"p":{"x":3}}') });
  });

  it("should fault a state with an accessor property, naming the problem", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "s", source: "export default { init() { return { n: 1 } }, onTick() { Object.defineProperty(this.state, 'g', { get() { return 1 }, enumerable: true }) } }" });
    await runtime.step(1);
    expect(await entry(runtime, "s")).toMatchObject({ faults: 1, last_fault: "onTick: TypeError: only value properties are supported", state_hash: stateHash('{"n":1}') });
  });

  it("should charge a state's size in fuel, a unit per byte of its binary JSON, changed or not", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "small", source: "export default { init() { return { n: 0 } }, onTick() {} }" });
    await runtime.run("script.load", { name: "large", source: "export default { init() { return { list: Array.from({ length: 10000 }, (_, i) => i + 0.5) } }, onTick() {} }" });
    await runtime.step(2);
    const [small, large] = [await entry(runtime, "small"), await entry(runtime, "large")];
    // 9 bytes per double: at least 90,000 units for the large state, a few for the small one.
    expect(large.fuel_used - small.fuel_used).toBeGreaterThanOrEqual(90_000);
    expect(small.fuel_used).toBeLessThan(200);
  });

  it("should give onTick the simulated time of its tick, across quick ticks, timers, events and a pause", async () => {
    const runtime = newRuntime({ config: { tick_ms: 40 } });
    const source = `export default {
  init() { return { seen: [] } },
  onLoad() { setTimeout(() => {}, 100) },
  on: { ping() {} },
  onTick(dt) { this.state.seen.push([Date.now(), dt]) },
}`;
    await runtime.run("script.load", { name: "s", source });
    await runtime.step(3); // tick 3 runs the timer first (due at 100 ms)
    runtime.emit("ping", {});
    await runtime.step(1);
    await runtime.run("script.pause", { name: "s" });
    await runtime.step(2);
    await runtime.run("script.resume", { name: "s" });
    await runtime.step(2);
    // onTick ran on ticks 1-4 and 7-8 (the pause applied on tick 5, the resume on tick 7).
    const seen = [1, 2, 3, 4, 7, 8].map((tick) => [tick * 40, 40]);
    expect(await entry(runtime, "s")).toMatchObject({ faults: 0, state_hash: stateHash(JSON.stringify({ seen })) });
  });
});

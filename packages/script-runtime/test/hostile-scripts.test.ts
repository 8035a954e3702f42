import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import { COUNTER, entry, list, newRuntime } from "./helpers.js";

/** Hostile handlers: each must fault only its own script with a clear reason. */
const HOSTILE: Record<string, { body: string; fault: RegExp }> = {
  loop: { body: "for (;;) {}", fault: /^onTick: out of fuel \(fuel_per_tick 200000\)$/ },
  loopInTry: { body: "for (;;) { try { for (;;) {} } catch (e) { this.state.caught = true } finally { this.state.fin = true } }", fault: /^onTick: out of fuel/ },
  recursion: { body: "const f = (n) => f(n + 1) + 1; f(0)", fault: /^onTick: (InternalError|RangeError): .*stack/ },
  deepData: { body: "let o = {}; for (let i = 0; i < 1000; i++) o = { o }; this.state.deep = o", fault: /^onTick: this\.state is not JSON data: this\.state\.deep(\.o)+ is nested deeper than 64 levels$/ },
  deepDataBuild: { body: "let o = []; for (let i = 0; i < 20000; i++) o = [o]; JSON.stringify(o)", fault: /^onTick: InternalError: stack overflow$/ },
  deepDataString: { body: "let o = []; for (let i = 0; i < 20000; i++) o = [o]; String(o)", fault: /^onTick: InternalError: stack overflow$/ },
  deepJson: { body: "JSON.parse('['.repeat(100000) + ']'.repeat(100000))", fault: /^onTick: (SyntaxError: stack overflow|out of fuel)/ },
  arrayBomb: { body: "const a = []; for (;;) a.push(new Array(10000).fill(7))", fault: /^onTick: out of (memory \(memory limit 8388608 bytes\)|fuel)/ },
  objectBomb: { body: "const o = {}; for (let i = 0; ; i++) o['k' + i] = { i }", fault: /^onTick: out of (memory|fuel)/ },
  stringBomb: { body: "let s = 'x'; for (;;) s = s + s", fault: /^onTick: (out of memory|RangeError|InternalError)/ },
  hugeRepeat: { body: "for (;;) 'y'.repeat(4000000)", fault: /^onTick: out of (fuel|memory)/ },
  hugeIndexOf: { body: "const big = new Array(400000).fill(1); for (;;) big.indexOf(2)", fault: /^onTick: out of fuel/ },
  hugeSort: { body: "const big = new Array(300000).fill(0).map((_, i) => -i); for (;;) big.sort()", fault: /^onTick: out of fuel/ },
  hugeJoin: { body: "const big = new Array(300000).fill('ab'); for (;;) big.join(',')", fault: /^onTick: out of fuel/ },
  hugeSpread: { body: "const big = new Array(300000).fill(1); for (;;) [...big]", fault: /^onTick: out of fuel/ },
  typedFill: { body: "const u = new Uint8Array(4000000); for (;;) u.fill(1)", fault: /^onTick: out of fuel/ },
  regexBacktrack: { body: "/^(a+)+$/.test('a'.repeat(40) + 'b')", fault: /^onTick: out of fuel/ },
  promiseStorm: { body: "const storm = () => Promise.resolve().then(storm); storm()", fault: /^onTick: out of fuel/ },
  hostProcess: { body: "process.exit(1)", fault: /^onTick: ReferenceError: 'process' is not defined$/ },
  hostRequire: { body: "require('fs')", fault: /^onTick: ReferenceError: 'require' is not defined$/ },
  hostFetch: { body: "fetch('http://127.0.0.1')", fault: /^onTick: ReferenceError: 'fetch' is not defined$/ },
  hostEval: { body: "eval('1')", fault: /^onTick: ReferenceError: 'eval' is not defined$/ },
  hostFunction: { body: "(() => {}).constructor('return globalThis')()", fault: /^onTick: EvalError: code generation from strings is disabled in scripts$/ },
  hostGlobalFunction: { body: "Function('return 1')()", fault: /^onTick: EvalError: code generation/ },
  hostImport: { body: "return import('node:fs')", fault: /^onTick \(after await\): (ReferenceError|Error|TypeError): .*node:fs/ },
  throwString: { body: "throw 'boom'", fault: /^onTick: threw a non-Error value: "boom"$/ },
  throwObject: { body: "throw { toString() { for (;;) {} } }", fault: /^onTick: threw a non-Error value: an object$/ },
  throwNull: { body: "throw null", fault: /^onTick: threw a non-Error value: null$/ },
  functionState: { body: "this.state.f = () => 1", fault: /^onTick: this\.state is not JSON data: this\.state\.f is a function$/ },
  cyclicState: { body: "const a = {}; a.a = a; this.state.a = a", fault: /^onTick: this\.state is not JSON data: this\.state\.a\.a is a cycle$/ },
  nanState: { body: "this.state.x = NaN", fault: /^onTick: this\.state is not JSON data: this\.state\.x is NaN$/ },
  mapState: { body: "this.state.m = new Map()", fault: /^onTick: this\.state is not JSON data: this\.state\.m is an object that is not plain data \(Map\)$/ },
  undefinedState: { body: "this.state.u = undefined", fault: /^onTick: this\.state is not JSON data: this\.state\.u is undefined$/ },
  hugeState: { body: "this.state.s = 'z'.repeat(2000000)", fault: /^onTick: (this\.state is larger than max_state_bytes|out of fuel)/ },
};

describe("hostile scripts", () => {
  it("should fault only the hostile script, with a clear last_fault, keep its state and keep ticking", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "good", source: COUNTER });
    for (const [name, { body }] of Object.entries(HOSTILE)) {
      await runtime.run("script.load", { name, source: `export default { init() { return { kept: 1 } }, onTick() { ${body} } }` });
    }
    await runtime.step(2);
    const listed = await list(runtime);
    expect(listed.tick).toBe(2);
    expect(await entry(runtime, "good")).toMatchObject({ faults: 0, state_hash: stateHash('{"n":2}') });
    for (const [name, { fault }] of Object.entries(HOSTILE)) {
      const script = listed.scripts.find((s) => s.name === name);
      expect(script, name).toBeDefined();
      expect(script?.last_fault, name).toMatch(fault);
      expect(script?.faults, name).toBeGreaterThanOrEqual(1);
      expect(script?.state_hash, `${name} keeps the state it had before the call`).toBe(stateHash('{"kept":1}'));
      expect(script?.fuel_used, name).toBeLessThanOrEqual(200_000);
    }
  }, 60_000);

  it("should keep the host's memory bounded while scripts bomb memory over many ticks", async () => {
    // Small allocations reach the memory limit fastest: a bomb of them fills
    // its heap in a fraction of a second, so every tick here is a full bomb.
    const bombs = ["const a = []; for (let i = 0; ; i++) a.push({ i })", "const a = []; for (;;) a.push([1, 2, 3, 4, 5, 6, 7, 8])"];
    const runtime = newRuntime({ config: { fuel_per_tick: 100_000_000 } });
    for (const [i, body] of bombs.entries()) {
      await runtime.run("script.load", { name: `bomb${i}`, source: `export default { onTick() { ${body} } }` });
    }
    await runtime.step(2);
    const before = process.memoryUsage();
    await runtime.step(4);
    const after = process.memoryUsage();
    const grown = after.rss - before.rss;
    // Two scripts of 8 MiB each fill their heaps on every tick; nothing of that may stay.
    expect(grown).toBeLessThan(64 * 1024 * 1024);
    const listed = await list(runtime);
    for (const script of listed.scripts) {
      expect(script.faults, script.name).toBe(6);
      expect(script.last_fault, script.name).toBe("onTick: out of memory (memory limit 8388608 bytes)");
    }
  }, 60_000);

  it("should fault a state over max_state_bytes", async () => {
    const runtime = newRuntime({ config: { max_state_bytes: 100 } });
    await runtime.run("script.load", { name: "s", source: "export default { onTick() { this.state.s = 'z'.repeat(200) } }" });
    await runtime.step(1);
    expect(await entry(runtime, "s")).toMatchObject({ last_fault: "onTick: this.state is larger than max_state_bytes (100)", state_hash: stateHash("{}") });
  });

  it("should stop a player's script at the players' smaller fuel budget", async () => {
    const runtime = newRuntime({ config: { players: "everyone", forbid: [] } });
    await runtime.run("script.load", { name: "p", source: "export default { onTick() { for (;;) {} } }", player: "u" });
    await runtime.step(1);
    expect(await entry(runtime, "p")).toMatchObject({ fuel_used: 50_000, last_fault: "onTick: out of fuel (fuel_per_tick 50000)" });
  });

  it("should report a fault in a load as a did-not-load line", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "l", source: "for (;;) {}" });
    await runtime.run("script.load", { name: "m", source: "import { x } from './missing.js'; export default {}" });
    await runtime.run("script.load", { name: "i", source: "export default { init() { throw new TypeError('no') } }" });
    await runtime.run("script.load", { name: "n", source: `export default ${"[".repeat(5000)}${"]".repeat(5000)}` });
    await runtime.step(1);
    expect((await list(runtime)).log).toEqual([
      "[tick 1] l did not load: module: out of fuel (fuel_per_tick 2000000)",
      expect.stringMatching(/^\[tick 1\] m did not load: module: .*missing\.js/),
      "[tick 1] i did not load: init: TypeError: no",
      "[tick 1] n did not load: module: source is nested deeper than 200 levels",
    ]);
  });

  it("should keep a player's script that hoards memory from starving the creator's and other players' scripts", async () => {
    // Each script's QuickJS limit counts allocations, not bytes, so a hoarder
    // of 1 MiB buffers fills its engine cell; cells are per tenant, so only
    // the hoarder's own cell fills.
    const limit = 4 * 1024 * 1024;
    const runtime = newRuntime({
      scriptsPerCell: 4,
      config: { players: "everyone", forbid: [], memory_limit_bytes: limit, player_memory_limit_bytes: limit, fuel_per_tick: 50_000_000, player_fuel_per_tick: 50_000_000 },
    });
    const hoard = "const kept = []; export default { onTick() { for (let i = 0; i < 8; i++) kept.push(new Uint8Array(1 << 20)); this.state.mib = kept.length } }";
    const busy = "export default { init() { return { ok: 0 } }, onTick() { const b = new Uint8Array(3 << 20); b[0] = 1; this.state.ok += b[0] } }";
    await runtime.run("script.load", { name: "hoarder", source: hoard, player: "p1" });
    await runtime.run("script.load", { name: "creator-busy", source: busy });
    await runtime.run("script.load", { name: "player-busy", source: busy, player: "p2" });
    await runtime.step(30);
    const hoarder = await entry(runtime, "hoarder");
    expect(hoarder.faults, "the hoarder filled its own cell").toBeGreaterThan(0);
    expect(hoarder.last_fault).toMatch(/^onTick: (RangeError: )?out of memory/);
    for (const name of ["creator-busy", "player-busy"]) {
      expect(await entry(runtime, name), name).toMatchObject({ faults: 0, state_hash: stateHash('{"ok":30}') });
    }
  }, 60_000);

  it("should stop a script whose uncharged work runs past watchdog_ms, and keep the others ticking", async () => {
    // Copying a 20,000-key object costs a fuel unit or two and ~2 ms: fuel
    // alone would let one tick run for minutes.
    const runtime = newRuntime({ config: { watchdog_ms: 300 } });
    const spread = "const big = {}; for (let i = 0; i < 20000; i++) big['k' + i] = i; export default { onTick() { for (;;) { const copy = { ...big }; } } }";
    await runtime.run("script.load", { name: "spread", source: spread });
    await runtime.run("script.load", { name: "good", source: COUNTER });
    await runtime.step(1);
    const started = performance.now();
    await runtime.step(1);
    const elapsed = performance.now() - started;
    expect(await entry(runtime, "spread")).toMatchObject({ faults: 2, last_fault: "onTick: ran longer than 300 ms of real time (watchdog_ms)", state_hash: stateHash("{}") });
    expect(await entry(runtime, "good")).toMatchObject({ faults: 0, state_hash: stateHash('{"n":2}') });
    // One tick: the watchdog's 300 ms plus the few hundred copies (at most) it takes to notice,
    // where fuel alone would allow some 100,000 copies (minutes).
    expect(elapsed).toBeLessThan(3_000);
  }, 60_000);

  it("should cap each script's memory in bytes with isolation \"script\": a hoarder stops near its own limit and its neighbour runs on", async () => {
    const MiB = 1024 * 1024;
    const runtime = newRuntime({ config: { isolation: "script", memory_limit_bytes: 16 * MiB, fuel_per_tick: 5_000_000 } });
    const hoard = "const kept = []; export default { init() { return { mib: 0 } }, onTick() { kept.push(new Uint8Array(1 << 20)); this.state.mib = kept.length } }";
    const busy = "export default { init() { return { ok: 0 } }, onTick() { const b = new Uint8Array(3 << 20); b[0] = 1; this.state.ok += b[0] } }";
    await runtime.run("script.load", { name: "hoarder", source: hoard });
    await runtime.run("script.load", { name: "busy", source: busy });
    await runtime.step(40);
    const hoarder = await entry(runtime, "hoarder");
    expect(hoarder.last_fault).toMatch(/^onTick: (RangeError: )?out of memory/);
    // Its state keeps the count of the last buffer that fit: its 16 MiB (its runtime's own few hundred KiB aside).
    const kept = Array.from({ length: 41 }, (_, n) => n).find((n) => stateHash(`{"mib":${n}}`) === hoarder.state_hash);
    expect(kept).toBeGreaterThanOrEqual(15);
    expect(kept).toBeLessThanOrEqual(16);
    expect(hoarder.faults).toBe(40 - kept!);
    expect(await entry(runtime, "busy")).toMatchObject({ faults: 0, state_hash: stateHash('{"ok":40}') });
  }, 60_000);
});

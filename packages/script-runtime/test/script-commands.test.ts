import { describe, expect, it } from "vitest";
import { ScriptRuntimeError, stateHash } from "../src/index.js";
import { COUNTER, entry, list, newRuntime } from "./helpers.js";

describe("script.load", () => {
  it("should queue the load and apply it on the next fixed tick", async () => {
    const runtime = newRuntime();
    expect(await runtime.run("script.load", { name: "counter", source: COUNTER })).toEqual({ queued: "counter", applies: "next fixed tick" });
    expect((await list(runtime)).scripts).toEqual([]);
    await runtime.step(1);
    const listed = await list(runtime);
    expect(listed.tick).toBe(1);
    expect(listed.sim_ms).toBe(50);
    expect(listed.scripts).toEqual([{
      name: "counter", principal: "creator", paused: false, faults: 0, last_fault: null,
      fuel_used: expect.any(Number), fuel_per_tick: 200_000, state_hash: stateHash('{"n":1}'),
    }]);
    expect(listed.log).toEqual(["[tick 1] loaded counter"]);
  });

  it("should name the missing source argument", async () => {
    const runtime = newRuntime();
    const error = await runtime.run("script.load", { name: "a" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScriptRuntimeError);
    expect((error as ScriptRuntimeError).toJSON()).toEqual({ code: "invalid_argument", message: expect.stringContaining("source") });
    expect((error as ScriptRuntimeError).message).not.toContain("name");
  });

  it("should name the missing name argument", async () => {
    const runtime = newRuntime();
    const outcome = await runtime.dispatch("script.load", { source: COUNTER });
    expect(outcome).toEqual({ ok: false, error: { code: "invalid_argument", message: expect.stringMatching(/name: required/) } });
  });

  it("should hot-reload a running script and keep this.state", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "c", source: COUNTER });
    await runtime.step(3);
    await runtime.run("script.load", { name: "c", source: "export default { onTick() { this.state.n += 10 } }" });
    await runtime.step(1);
    expect((await entry(runtime, "c")).state_hash).toBe(stateHash('{"n":13}'));
    expect((await list(runtime)).log).toContain("[tick 4] reloaded c (state kept)");
  });

  it("should keep the running version and log the error when a reload does not load", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "c", source: COUNTER });
    await runtime.step(1);
    await runtime.run("script.load", { name: "c", source: "export default {" });
    await runtime.step(1);
    expect((await entry(runtime, "c")).state_hash).toBe(stateHash('{"n":2}'));
    expect((await list(runtime)).log.at(-1)).toMatch(/^\[tick 2\] c did not load: module: SyntaxError/);
  });

  it("should start from fresh state when loaded again after an unload", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "c", source: COUNTER });
    await runtime.step(5);
    await runtime.run("script.unload", { name: "c" });
    await runtime.run("script.load", { name: "c", source: COUNTER });
    await runtime.step(1);
    expect((await entry(runtime, "c")).state_hash).toBe(stateHash('{"n":1}'));
    expect((await list(runtime)).log.slice(-2)).toEqual(["[tick 6] unloaded c", "[tick 6] loaded c"]);
  });

  it("should refuse a player's script when the players setting is off, and log it", async () => {
    const runtime = newRuntime({ config: { players: "off" } });
    await runtime.run("script.load", { name: "mine", source: COUNTER, player: "p1", owner: true });
    await runtime.step(1);
    const listed = await list(runtime);
    expect(listed.scripts).toEqual([]);
    expect(listed.log).toEqual(["[tick 1] refused mine from player p1: players' scripts are off"]);
  });

  it.each([
    ["owner", { owner: true }, true],
    ["owner", { friend: true }, false],
    ["friends", { friend: true }, true],
    ["friends", {}, false],
    ["everyone", {}, true],
    [{ roles: ["builder"] }, { roles: ["builder"] }, true],
    [{ roles: ["builder"] }, { roles: ["guest"] }, false],
  ] as const)("should apply the players setting %j to a player with %j (allowed: %s)", async (players, claims, allowed) => {
    const runtime = newRuntime({ config: { players } });
    await runtime.run("script.load", { name: "live", source: COUNTER, player: "p1", ...claims });
    await runtime.step(1);
    const listed = await list(runtime);
    expect(listed.scripts.length).toBe(allowed ? 1 : 0);
    if (allowed) {
      expect(listed.scripts[0]).toMatchObject({ principal: { player: "p1", roles: "roles" in claims ? [...claims.roles] : [] }, fuel_per_tick: 50_000 });
    } else {
      expect(listed.log.at(-1)).toMatch(/^\[tick 1\] refused live from player p1: /);
    }
  });

  it("should refuse a player's script that fails moderation: size, deny-list, forbidden construct, hook", async () => {
    const runtime = newRuntime({
      config: { players: "everyone", deny: ["badword"], player_max_source_bytes: 200 },
      moderate: ({ source }) => (source.includes("hook-no") ? { ok: false, reason: "the hook said no" } : { ok: true }),
    });
    await runtime.run("script.load", { name: "big", source: `// ${"x".repeat(300)}`, player: "p" });
    await runtime.run("script.load", { name: "rude", source: "// BadWord", player: "p" });
    await runtime.run("script.load", { name: "sneaky", source: "export default { onTick() { ({}).constructor } }", player: "p" });
    await runtime.run("script.load", { name: "hooked", source: "// hook-no", player: "p" });
    await runtime.run("script.load", { name: "fine", source: "// a string 'constructor' is fine", player: "p" });
    await runtime.step(1);
    const listed = await list(runtime);
    expect(listed.scripts.map((s) => s.name)).toEqual(["fine"]);
    expect(listed.log).toEqual([
      "[tick 1] moderation refused big from player p: source is 303 bytes, over the players' limit of 200",
      '[tick 1] moderation refused rude from player p: source contains the denied word "badword"',
      '[tick 1] moderation refused sneaky from player p: source uses the forbidden construct "constructor"',
      "[tick 1] moderation refused hooked from player p: the hook said no",
      "[tick 1] loaded fine from player p",
    ]);
  });

  it("should refuse a load of a name that another principal runs", async () => {
    const runtime = newRuntime({ config: { players: "everyone" } });
    await runtime.run("script.load", { name: "shared", source: COUNTER });
    await runtime.run("script.load", { name: "shared", source: COUNTER, player: "p9" });
    await runtime.step(1);
    expect((await entry(runtime, "shared")).principal).toBe("creator");
    expect((await list(runtime)).log.at(-1)).toBe("[tick 1] refused shared from player p9: the name is taken by the creator");
  });

  it("should not load a game script over max_source_bytes", async () => {
    const runtime = newRuntime({ config: { max_source_bytes: 100 } });
    await runtime.run("script.load", { name: "huge", source: `// ${"y".repeat(200)}` });
    await runtime.step(1);
    expect((await list(runtime)).log).toEqual(["[tick 1] huge did not load: source is 203 bytes, over max_source_bytes (100)"]);
  });

  it("should refuse roles, owner or friend without player", async () => {
    const runtime = newRuntime();
    const outcome = await runtime.dispatch("script.load", { name: "a", source: COUNTER, owner: true });
    expect(outcome).toEqual({ ok: false, error: { code: "invalid_argument", message: "script.load: owner: only with player" } });
  });
});

describe("script.pause and script.resume", () => {
  it("should give a paused script no ticks or events, then catch its clock up on resume with due timers in order", async () => {
    const runtime = newRuntime();
    const source = `export default {
      init() { return { ticks: 0, fired: [], events: 0 } },
      onLoad() { setTimeout(() => this.state.fired.push(Date.now()), 120); setTimeout(() => this.state.fired.push(Date.now()), 80); },
      onTick() { this.state.ticks += 1 },
      on: { ping() { this.state.events += 1 } },
    }`;
    await runtime.run("script.load", { name: "t", source });
    await runtime.step(1); // sim 50: loaded, one tick
    expect(await runtime.run("script.pause", { name: "t" })).toEqual({ queued: "t" });
    await runtime.step(1); // sim 100: paused
    runtime.emit("ping", {});
    await runtime.step(3); // sim 250
    const paused = await entry(runtime, "t");
    expect(paused).toMatchObject({ paused: true, fuel_used: 0 });
    expect(paused.state_hash).toBe(stateHash('{"events":0,"fired":[],"ticks":1}'));
    await runtime.run("script.resume", { name: "t" });
    await runtime.step(1); // sim 300: catch up: timers at 80 and 120, in order, each at its own time
    expect((await entry(runtime, "t")).state_hash).toBe(stateHash('{"events":0,"fired":[80,120],"ticks":2}'));
    expect((await list(runtime)).log).toEqual(["[tick 1] loaded t", "[tick 2] paused t", "[tick 6] resumed t"]);
  });

  it("should answer not_found for a name that is neither loaded nor queued", async () => {
    const runtime = newRuntime();
    for (const command of ["script.pause", "script.resume", "script.unload"]) {
      expect(await runtime.dispatch(command, { name: "ghost" })).toEqual({
        ok: false, error: { code: "not_found", message: "no script named ghost is loaded or queued to load" },
      });
    }
  });

  it("should accept a pause queued right after a load in the same tick", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "c", source: COUNTER });
    await runtime.run("script.pause", { name: "c" });
    await runtime.step(2);
    expect(await entry(runtime, "c")).toMatchObject({ paused: true, state_hash: stateHash('{"n":0}') });
  });
});

describe("script.unload", () => {
  it("should remove the script and keep the others in load order", async () => {
    const runtime = newRuntime();
    for (const name of ["a", "b", "c"]) await runtime.run("script.load", { name, source: COUNTER });
    await runtime.step(1);
    await runtime.run("script.unload", { name: "b" });
    await runtime.step(1);
    expect((await list(runtime)).scripts.map((s) => s.name)).toEqual(["a", "c"]);
  });
});

describe("script.list", () => {
  it("should chain every script's state hash each tick, the same way from the same inputs", async () => {
    const one = newRuntime();
    const two = newRuntime();
    for (const runtime of [one, two]) {
      await runtime.run("script.load", { name: "a", source: COUNTER });
      await runtime.step(4);
    }
    const [a, b] = [await list(one), await list(two)];
    expect(a.chain).toMatch(/^[0-9a-f]{64}$/);
    expect(a.chain).toBe(b.chain);
    await one.step(1);
    expect((await list(one)).chain).not.toBe(a.chain);
  });

  it("should keep at most 200 log lines, newest last", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "c", source: COUNTER });
    await runtime.step(1);
    for (let i = 0; i < 110; i++) {
      await runtime.run("script.pause", { name: "c" });
      await runtime.run("script.resume", { name: "c" });
    }
    await runtime.step(1);
    const { log } = await list(runtime);
    expect(log.length).toBe(200);
    expect(log.at(-1)).toBe("[tick 2] resumed c");
    expect(log.every((line) => /^\[tick \d+\] /.test(line))).toBe(true);
  });

  it("should log problems of the script configuration as manifest problems and use the defaults", async () => {
    const runtime = newRuntime({ config: { fuel_per_tick: -5, colour: "red" } });
    await runtime.run("script.load", { name: "c", source: COUNTER });
    await runtime.step(1);
    const listed = await list(runtime);
    expect(listed.scripts[0]?.fuel_per_tick).toBe(200_000);
    expect(listed.log.slice(0, 2)).toEqual([
      expect.stringMatching(/^\[tick 0\] manifest problem: script configuration: fuel_per_tick: .*; using 200000$/),
      "[tick 0] manifest problem: script configuration: unknown field colour; ignored",
    ]);
  });
});

describe("runtime.run", () => {
  it("should answer not_found for an unknown command", async () => {
    const runtime = newRuntime();
    expect(await runtime.dispatch("script.fly", {})).toEqual({ ok: false, error: { code: "not_found", message: "unknown command: script.fly" } });
  });

  it("should step ticks with the host command runtime.step", async () => {
    const runtime = newRuntime({ config: { tick_ms: 20 } });
    expect(await runtime.run("runtime.step", { ticks: 3 })).toMatchObject({ tick: 3, sim_ms: 60 });
  });

  it("should tick in real time after start", async () => {
    const runtime = newRuntime({ config: { tick_ms: 10 } });
    await runtime.run("script.load", { name: "c", source: COUNTER });
    runtime.start();
    const started = performance.now();
    while ((await list(runtime)).tick < 3 && performance.now() - started < 5000) await new Promise((r) => setTimeout(r, 10));
    runtime.stop();
    const listed = await list(runtime);
    expect(listed.tick).toBeGreaterThanOrEqual(3);
    expect(listed.scripts[0]?.name).toBe("c");
  });
});

import { describe, expect, it } from "vitest";
import { createGameKinds } from "../src/kinds/create-game-kinds.js";
import { createReferenceWorld } from "../src/kinds/reference-world.js";
import type { ScriptRuntimeOptions } from "../src/index.js";
import { entry, list, newRuntime } from "./helpers.js";


/** Runs `body` in a script (as the game's own script, or a player's) and answers `{value}` or `{error}`. */
async function inScript(body: string, options: { config?: unknown; player?: string; roles?: string[]; kinds?: ReturnType<typeof createReferenceWorld> } = {}) {
  const world = options.kinds ?? createReferenceWorld();
  let answer: { value?: unknown; error?: string } | undefined;
  const runtime = newRuntime({
    kinds: world,
    config: options.config,
    onConsole: (_script, _level, text) => { answer = JSON.parse(text) as typeof answer; },
  });
  const source = `export default { onLoad() {
    let out;
    try { out = { value: (() => { ${body} })() ?? null }; } catch (e) { out = { error: e.name + ": " + e.message }; }
    console.log(JSON.stringify(out));
  } }`;
  await runtime.run("script.load", { name: "probe", source, ...(options.player ? { player: options.player, roles: options.roles ?? [], owner: true } : {}) });
  await runtime.step(1);
  if (!answer) throw new Error(`the probe did not answer: ${(await list(runtime)).log.join("\n")}`);
  return { ...answer, world, runtime };
}

const PLAYERS_SEE_PARTS = {
  players: "everyone",
  kinds: { Part: { fields: { position: "read", color: "write" }, methods: ["distance_to"] }, Player: { fields: { score: "read" } } },
  roles: { builder: { kinds: { Part: { spawn: true, fields: { name: "write" }, methods: ["apply_impulse"] } } } },
};

describe("game (the in-script API)", () => {
  it("should let the game's own scripts spawn, read, write and call", async () => {
    const { value, world } = await inScript(`
      const p = game.spawn("Part", { position: { x: 1, y: 5, z: 0 }, name: "crate" });
      p.color = { r: 1, g: 0, b: 0 };
      return { id: p.id, kind: p.kind, name: p.name, color: p.color, d: p.distanceTo({ x: 1, y: 1, z: 0 }), same: game.get(p.id) === p, count: game.find("Part").length };
    `);
    expect(value).toEqual({ id: "part-1", kind: "Part", name: "crate", color: { r: 1, g: 0, b: 0 }, d: 4, same: true, count: 1 });
    expect(world.world.get("part-1")?.fields.color).toEqual({ r: 1, g: 0, b: 0 });
  });

  it("should throw inside the script, and change nothing, on a write to a read-only field", async () => {
    const { error, world } = await inScript(`const p = game.spawn("Part"); p.mass = 5;`);
    expect(error).toBe("TypeError: Part.mass is read-only");
    expect(world.world.get("part-1")?.fields.mass).toBe(1);
  });

  it("should throw a RangeError, and change nothing, on a value outside the field's range", async () => {
    const { error, world } = await inScript(`const w = game.get("world-1"); w.gravity = 5;`);
    expect(error).toBe("RangeError: World.gravity: 5 is outside its range [-100, 0]");
    expect(world.world.get("world-1")?.fields.gravity).toBe(-10);
  });

  it("should check every number inside a value type against the range", async () => {
    const { error } = await inScript(`const p = game.spawn("Part"); p.color = { r: 0.5, g: 2, b: 0 };`);
    expect(error).toBe("RangeError: Part.color.g: 2 is outside its range [0, 1]");
  });

  it("should refuse values of the wrong type", async () => {
    const { error } = await inScript(`const p = game.spawn("Part"); p.anchored = "yes";`);
    expect(error).toBe('TypeError: Part.anchored: expected a boolean, got "yes"');
  });

  it("should refuse to spawn a kind that is not spawnable", async () => {
    const { error, world } = await inScript(`game.spawn("Player", {});`);
    expect(error).toBe("TypeError: Player is not spawnable");
    expect(world.world.find("Player")).toHaveLength(2);
  });

  it("should throw once a method is called past its rate, and let calls through again a second later", async () => {
    const world = createReferenceWorld();
    const lines: string[] = [];
    const runtime = newRuntime({ kinds: world, onConsole: (_s, _l, text) => lines.push(text) });
    await runtime.run("script.load", {
      name: "pusher",
      source: `export default { async onLoad() {
        const p = game.spawn("Part", { anchored: true });
        const burst = () => { let n = 0; try { for (let i = 0; i < 15; i++) { p.applyImpulse({ x: 1, y: 0, z: 0 }); n++; } } catch (e) { console.log(n + " " + e.name + ": " + e.message); } };
        burst();
        await wait(1000);
        burst();
      } }`,
    });
    await runtime.step(25);
    expect(lines).toEqual([
      "10 RangeError: Part.applyImpulse: rate limit of 10 calls per second reached",
      "10 RangeError: Part.applyImpulse: rate limit of 10 calls per second reached",
    ]);
    expect((world.world.get("part-1")?.fields.velocity as { x: number }).x).toBe(20);
  });

  it("should count a rate across a hot reload of the script", async () => {
    const world = createReferenceWorld();
    const lines: string[] = [];
    const runtime = newRuntime({ kinds: world, onConsole: (_s, _l, text) => lines.push(text) });
    const source = (tag: string) => `export default { onLoad() { try { game.get("world-1").announce("${tag}"); game.get("world-1").announce("${tag}"); game.get("world-1").announce("${tag}"); } catch (e) { console.log(e.message); } } }`;
    await runtime.run("script.load", { name: "talker", source: source("one") });
    await runtime.step(1);
    await runtime.run("script.load", { name: "talker", source: source("two") });
    await runtime.step(1);
    expect(world.messages).toEqual([["all", "one"], ["all", "one"]]);
    expect(lines).toEqual(["World.announce: rate limit of 2 calls per second reached", "World.announce: rate limit of 2 calls per second reached"]);
  });

  it("should count a player's calls across all their scripts", async () => {
    const world = createReferenceWorld();
    const lines: string[] = [];
    const runtime = newRuntime({ kinds: world, config: { players: "everyone", kinds: { Player: { methods: ["send_message"] } } }, onConsole: (_s, _l, text) => lines.push(text) });
    const source = "export default { onLoad() { try { game.get('player-1').sendMessage('hi') } catch (e) { console.log(e.message) } } }";
    await runtime.run("script.load", { name: "one", source, player: "p1" });
    await runtime.run("script.load", { name: "two", source, player: "p1" });
    await runtime.run("script.load", { name: "three", source, player: "p2" });
    await runtime.step(1);
    expect(world.messages).toEqual([["player-1", "hi"], ["player-1", "hi"]]);
    expect(lines).toEqual(["Player.sendMessage: rate limit of 1 call per second reached"]);
  });

  it("should show a player's live script only what the configuration grants", async () => {
    const { value } = await inScript(`
      const p = game.find("Player")[0];
      return { kinds: ["World", "Part", "Player"].map((k) => { try { game.find(k); return k + ": yes"; } catch (e) { return k + ": " + e.name; } }), keys: Object.keys(Object.getPrototypeOf(p)), teamHidden: p.team === undefined };
    `, { config: PLAYERS_SEE_PARTS, player: "p1" });
    expect(value).toEqual({ kinds: ["World: ReferenceError", "Part: yes", "Player: yes"], keys: ["score"], teamHidden: true });
  });

  it("should refuse a player's write the configuration grants only as read", async () => {
    const world = createReferenceWorld();
    const part = world.world.spawn("Part");
    const { error } = await inScript(`game.get("${part.id}").position = { x: 0, y: 0, z: 0 };`, { config: PLAYERS_SEE_PARTS, player: "p1", kinds: world });
    expect(error).toBe("TypeError: Part.position is read-only for this script");
  });

  it("should let a role add grants: spawning and a method", async () => {
    const without = await inScript(`game.spawn("Part");`, { config: PLAYERS_SEE_PARTS, player: "p1" });
    expect(without.error).toBe("TypeError: Part may not be spawned by this script");
    const withRole = await inScript(`const p = game.spawn("Part", { name: "mine" }); p.applyImpulse({ x: 0, y: 1, z: 0 }); return p.name === undefined ? "hidden" : p.name;`, { config: PLAYERS_SEE_PARTS, player: "p1", roles: ["builder"] });
    expect(withRole.value).toBe("mine");
  });

  it("should make every kind invisible to players when the configuration grants none", async () => {
    const { error } = await inScript(`game.find("Part");`, { config: { players: "everyone" }, player: "p1" });
    expect(error).toBe("ReferenceError: no kind Part in this script's API");
  });

  it("should charge fuel for calls into the game", async () => {
    const runtime = newRuntime({ kinds: createReferenceWorld() });
    await runtime.run("script.load", { name: "reader", source: `export default { onTick() { const w = game.get("world-1"); for (let i = 0; i < 100; i++) w.gravity; } }` });
    await runtime.run("script.load", { name: "plain", source: `export default { onTick() { const w = { gravity: 1 }; for (let i = 0; i < 100; i++) w.gravity; } }` });
    await runtime.step(1);
    const reader = await entry(runtime, "reader");
    const plain = await entry(runtime, "plain");
    expect(reader.fuel_used).toBeGreaterThan(plain.fuel_used + 100 * 100);
  });
});

describe("createReferenceWorld", () => {
  it("should move unanchored parts deterministically: fall under gravity and rest on the ground", async () => {
    const positions: unknown[] = [];
    for (let round = 0; round < 2; round++) {
      const world = createReferenceWorld();
      const runtime = newRuntime({ kinds: world });
      await runtime.run("script.load", { name: "drop", source: `export default { onLoad() { game.spawn("Part", { position: { x: 0, y: 3, z: 0 }, velocity: { x: 2, y: 0, z: 0 } }); game.spawn("Part", { position: { x: 0, y: 3, z: 0 }, anchored: true }); } }` });
      await runtime.step(40);
      positions.push(world.world.snapshot());
    }
    expect(positions[0]).toEqual(positions[1]);
    const [falling, anchored] = (positions[0] as { fields: { position: { x: number; y: number } } }[]).slice(3);
    expect(falling!.fields.position.y).toBe(0.5);
    expect(falling!.fields.position.x).toBeCloseTo(2 * 40 * 0.05, 9);
    expect(anchored!.fields.position).toEqual({ x: 0, y: 3, z: 0 });
  });

  it("should advance World.sim_ms with the runtime's ticks", async () => {
    const world = createReferenceWorld();
    const runtime = newRuntime({ kinds: world, config: { tick_ms: 20 } });
    await runtime.step(7);
    expect(world.world.get("world-1")?.fields.sim_ms).toBe(140);
  });
});

describe("createGameKinds", () => {
  it("should refuse a declaration with an unknown type or a duplicate name", () => {
    expect(() => createGameKinds({ declarations: { kinds: [{ kind: "Door", fields: [{ name: "hinge", js: "hinge", type: "Quaternion" }] }] } })).toThrow("unknown type Quaternion");
    expect(() => createGameKinds({ declarations: { kinds: [{ kind: "Door" }, { kind: "Door" }] } })).toThrow("duplicate name Door");
  });

  it("should log each configuration problem as a manifest line at start", async () => {
    const runtime = newRuntime({
      kinds: createReferenceWorld(),
      config: {
        kinds: { Rocket: {}, Part: { fields: { mass: "write", shine: "read" }, methods: ["explode"] }, Player: { spawn: true }, World: "all" },
      },
    });
    expect((await list(runtime)).log).toEqual([
      "[tick 0] manifest problem: kinds.World: Invalid input: expected object, received string; ignored",
      "[tick 0] manifest problem: kinds.Rocket: unknown kind Rocket",
      "[tick 0] manifest problem: kinds.Part.fields.mass: write granted on the read-only field Part.mass",
      "[tick 0] manifest problem: kinds.Part.fields.shine: unknown field Part.shine",
      "[tick 0] manifest problem: kinds.Part.methods: unknown method Part.explode",
      "[tick 0] manifest problem: kinds.Player.spawn: Player is not spawnable",
    ]);
  });
});

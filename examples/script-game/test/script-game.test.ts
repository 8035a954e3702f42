import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScriptRuntime, stateHash } from "@playfield/script-runtime";
import type { ScriptList } from "@playfield/script-runtime";
import { afterEach, describe, expect, it } from "vitest";
import { createGardenKinds } from "../src/garden-kinds.js";
import { PROJECT, runGarden } from "../src/main.js";

const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the example's project, so that the check's declaration files are written elsewhere. */
function projectCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "garden-"));
  cpSync(PROJECT, dir, { recursive: true });
  copies.push(dir);
  return dir;
}

type Fields = Record<string, number | string>;

describe("runGarden", () => {
  it("should check the project clean, with the game's script tests passing", async () => {
    const { check } = await runGarden({ project: projectCopy(), ticks: 1 });
    expect(check.ok).toBe(true);
    expect(check.report.filter((l) => l.startsWith("test "))).toEqual([
      "test scripts/garden.test.js: a plant below the threshold needs water: ok",
      "test scripts/garden.test.js: a plant grows while it has water: ok",
      "test scripts/garden.test.js: growth is read-only for scripts: ok",
      "test scripts/test_almanac.py: test_seasons_turn_every_thirty_days: ok",
      "test scripts/test_almanac.py: test_a_watered_plant_grows: ok",
    ]);
  });

  it("should grow and harvest plants, every crop landing in the basket", async () => {
    const { list, objects } = await runGarden({ project: projectCopy(), ticks: 2_000 });
    expect(list.scripts.map((s) => [s.name, s.faults])).toEqual([["sprinkler", 0], ["almanac", 0], ["helper", 0]]);
    const plants = objects.filter((o) => o.kind === "Plant").map((o) => o.fields as Fields);
    const harvests = plants.map((p) => p.harvests as number);
    expect(Math.min(...harvests)).toBeGreaterThan(0);
    const crops = plants.reduce((sum, p) => sum + (p.harvests as number) * (p.species === "tomato" ? 3 : 2), 0);
    expect((objects.find((o) => o.id === "gardener-1")!.fields as Fields).basket).toBe(crops);
  });

  it("should compile the Python almanac and count its days on the simulated clock", async () => {
    const { check, list } = await runGarden({ project: projectCopy(), ticks: 100 });
    expect(check.report).toContain("compile scripts/almanac.py: ok");
    expect(check.report).toContain("compile scripts/modules/seasons.py: ok");
    // 100 ticks of 50 ms: five days of the almanac's 1,000 ms.
    const almanac = list.scripts.find((s) => s.name === "almanac");
    expect(almanac).toMatchObject({ faults: 0, last_fault: null });
    expect(almanac!.state_hash).not.toBe(stateHash('{"day":0,"forecast":[],"rainy_days":0,"season":"spring"}'));
  }, 30_000);

  it("should give the same world on every run", async () => {
    const a = await runGarden({ project: projectCopy(), ticks: 500 });
    const b = await runGarden({ project: projectCopy(), ticks: 500 });
    expect(a.objects).toEqual(b.objects);
    expect(a.list.chain).toBe(b.list.chain);
  });
});

describe("the garden's script configuration", () => {
  const config = { players: "everyone", kinds: { Plant: { fields: { water: "write", growth: "read" } } }, roles: { head_gardener: { kinds: { Plant: { spawn: true } } } } };
  const spawnPlant = "export default { onTick() { if (!this.state.done) { this.state.done = true; game.spawn('Plant', {}) } } }";

  it("should let a player's live script water plants but not spawn them without the role", async () => {
    const kinds = createGardenKinds();
    const runtime = createScriptRuntime({ kinds, config });
    try {
      await runtime.run("script.load", { name: "seeder", player: "u1", source: spawnPlant });
      await runtime.run("script.load", { name: "head", player: "u2", roles: ["head_gardener"], source: spawnPlant });
      await runtime.step(2);
      const list = (await runtime.run("script.list")) as ScriptList;
      expect(list.scripts.map((s) => [s.name, s.last_fault])).toEqual([
        ["seeder", "onTick: TypeError: Plant may not be spawned by this script"],
        ["head", null],
      ]);
      expect(kinds.world.find("Plant")).toHaveLength(4);
    } finally {
      await runtime.dispose();
    }
  });
});

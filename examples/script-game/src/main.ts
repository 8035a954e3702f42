/**
 * The garden game: embeds the script runtime with its own kinds, checks its
 * project (scripts/, scripts.config.json, script tests), runs its own
 * sprinkler script (JavaScript) and almanac (Python), and lets a player's
 * live script water a plant.
 */
import { fileURLToPath } from "node:url";
import { createScriptEditor, type CheckResult } from "@playfield/script-runtime/node";
import type { GameKindsWithWorld, ScriptList } from "@playfield/script-runtime";
import { createGardenKinds } from "./garden-kinds.js";

/** The example's project folder. */
export const PROJECT = fileURLToPath(new URL("../project", import.meta.url));

/** Runs the garden for `ticks` fixed ticks; answers the check report, the script list and the world's objects. */
export async function runGarden(options: { project?: string; ticks?: number } = {}) {
  // The first kinds made are the running game's; script tests get fresh ones each.
  let live: GameKindsWithWorld | undefined;
  const kinds = () => {
    const made = createGardenKinds();
    live ??= made;
    return made;
  };
  const editor = createScriptEditor({ project: options.project ?? PROJECT, kinds, watch: false });
  try {
    const check = (await editor.runtime.run("editor.scripts.check")) as CheckResult;
    await editor.runtime.run("editor.scripts.load", { name: "sprinkler" });
    await editor.runtime.run("editor.scripts.load", { name: "almanac" });
    await editor.runtime.run("script.load", {
      name: "helper",
      player: "user-7",
      source: "export default { onTick() { for (const p of game.find('Plant')) if (p.water < 0.5) p.water = 0.5 } }",
    });
    await editor.runtime.step(options.ticks ?? 2_000);
    const list = (await editor.runtime.run("script.list")) as ScriptList;
    return { check, list, objects: live!.world.snapshot() };
  } finally {
    await editor.dispose();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { check, list, objects } = await runGarden();
  console.log(check.report.join("\n"));
  console.log(JSON.stringify({ scripts: list.scripts, log: list.log, objects }, null, 2));
}

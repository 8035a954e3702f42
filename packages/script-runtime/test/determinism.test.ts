import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli-process.js";
import { drive, MODULES, plan, planOptions, PLAN_TICKS } from "./determinism-plan.js";
import { newRuntime } from "./helpers.js";

function asLines(): unknown[] {
  const lines: unknown[] = [];
  let tick = 0;
  for (const step of plan()) {
    if (step.at > tick) { lines.push({ command: "runtime.step", args: { ticks: step.at - tick } }); tick = step.at; }
    lines.push({ command: step.command, args: step.args });
  }
  lines.push({ command: "runtime.step", args: { ticks: PLAN_TICKS - tick } }, { command: "script.list" });
  return lines;
}

describe("determinism", () => {
  it("should give identical script.list output from two runtimes over 1,000 ticks, and the same in a second process (JavaScript and Python)", async () => {
    const [a, b] = [await drive(newRuntime(planOptions())), await drive(newRuntime(planOptions()))];
    expect(a.tick).toBe(1000);
    expect(a.scripts.map((s) => s.name)).toEqual(["waiter", "timers", "reloaded", "py-walker", "py-timers", "py-builder", "py-spinner", "walker"]);
    expect(a.scripts.filter((s) => s.faults > 0).map((s) => s.name)).toEqual(["py-spinner"]);
    expect(a.scripts.find((s) => s.name === "py-spinner")?.last_fault).toBe("on_tick: out of fuel (fuel_per_tick 200000)");
    expect(b).toEqual(a);
    const project = await mkdtemp(join(tmpdir(), "playfield-scripts-"));
    for (const [path, source] of Object.entries(MODULES)) {
      await mkdir(dirname(join(project, "scripts", path)), { recursive: true });
      await writeFile(join(project, "scripts", path), source);
    }
    const answers = await runCli(asLines(), ["--manual-ticks", "--seed", "7", "--project", project]);
    await rm(project, { recursive: true, force: true });
    expect(answers.at(-1)).toEqual({ ok: true, result: a });
  }, 60_000);
});

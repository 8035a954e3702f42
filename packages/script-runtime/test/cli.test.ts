import { cpSync, existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { USAGE } from "../src/cli/cli-args.js";
import { stateHash } from "../src/index.js";
import { runBin, runCli } from "./cli-process.js";
import { COUNTER } from "./helpers.js";
import { projectWith } from "./project-fixture.js";

const EXAMPLE_PROJECT = fileURLToPath(new URL("../../../examples/script-game/project", import.meta.url));

describe("playfield-scripts", () => {
  it("should answer every command and state transition, one JSON line per command", async () => {
    const answers = await runCli([
      { command: "script.load", args: { name: "c", source: COUNTER } },
      { command: "script.load", args: { name: "x" } },
      { command: "runtime.step", args: { ticks: 2 } },
      { command: "script.load", args: { name: "c", source: "export default { onTick() { this.state.n += 100 } }" } },
      { command: "runtime.step", args: { ticks: 1 } },
      { command: "script.pause", args: { name: "c" } },
      { command: "runtime.step", args: { ticks: 2 } },
      { command: "script.resume", args: { name: "c" } },
      { command: "runtime.step", args: { ticks: 1 } },
      { command: "script.list" },
      { command: "script.unload", args: { name: "c" } },
      { command: "script.load", args: { name: "c", source: COUNTER } },
      { command: "runtime.step", args: { ticks: 1 } },
      { command: "script.list" },
      { command: "script.nope" },
      "not json",
    ]);
    expect(answers[0]).toEqual({ ok: true, result: { queued: "c", applies: "next fixed tick" } });
    expect(answers[1]).toEqual({ ok: false, error: { code: "invalid_argument", message: expect.stringContaining("source") } });
    expect(answers[5]).toEqual({ ok: true, result: { queued: "c" } });
    const first = answers[9] as { ok: true; result: { tick: number; scripts: { state_hash: string; paused: boolean }[]; log: string[] } };
    expect(first.result.tick).toBe(6);
    // 2 ticks counting, then +100 on the reload tick, paused for 2, +100 on resume.
    expect(first.result.scripts[0]).toMatchObject({ paused: false, state_hash: stateHash('{"n":202}') });
    expect(first.result.log).toEqual(["[tick 1] loaded c", "[tick 3] reloaded c (state kept)", "[tick 4] paused c", "[tick 6] resumed c"]);
    const second = answers[13] as { ok: true; result: { scripts: { state_hash: string }[]; log: string[] } };
    expect(second.result.scripts[0]?.state_hash).toBe(stateHash('{"n":1}'));
    expect(second.result.log.slice(-2)).toEqual(["[tick 7] unloaded c", "[tick 7] loaded c"]);
    expect(answers[14]).toEqual({ ok: false, error: { code: "not_found", message: "unknown command: script.nope" } });
    expect(answers[15]).toEqual({ ok: false, error: { code: "invalid_argument", message: "each line must be one JSON object" } });
  }, 60_000);

  it("should run Python scripts as issue 17's done-when says: a counter's state_hash changes per tick, an endless loop faults within its fuel while the counter runs on, and two processes end with the same chain", async () => {
    const lines = [
      { command: "script.load", args: { name: "count", language: "py", source: "def init():\n    return {'n': 0}\n\ndef on_tick(self, dt):\n    self.state['n'] += 1\n" } },
      { command: "script.load", args: { name: "spin", language: "py", source: "def on_tick(self, dt):\n    while True:\n        pass\n" } },
      ...[1, 2, 3].flatMap(() => [{ command: "runtime.step", args: { ticks: 1 } }, { command: "script.list" }]),
    ];
    const [first, second] = await Promise.all([runCli(lines), runCli(lines)]);
    type Listed = { ok: true; result: { chain: string; log: string[]; scripts: { name: string; state_hash: string; faults: number; fuel_used: number; last_fault: string | null }[] } };
    const lists = (first as Listed[]).filter((a) => "scripts" in a.result).map((a) => a.result);
    expect(lists).toHaveLength(3);
    expect(lists[0]!.log).toEqual(["[tick 1] loaded count", "[tick 1] loaded spin"]);
    const hashes = lists.map((l) => l.scripts[0]!.state_hash);
    expect(hashes).toEqual([stateHash('{"n":1}'), stateHash('{"n":2}'), stateHash('{"n":3}')]);
    expect(lists[2]!.scripts[0]).toMatchObject({ name: "count", faults: 0 });
    expect(lists[2]!.scripts[1]).toMatchObject({ name: "spin", faults: 3, fuel_used: 200_000, last_fault: "on_tick: out of fuel (fuel_per_tick 200000)" });
    expect(second).toEqual(first);
  }, 60_000);

  it("should tick in real time without --manual-ticks", async () => {
    const commands: unknown[] = [{ command: "script.load", args: { name: "c", source: COUNTER } }];
    const answers = await runCli([...commands, ...Array.from({ length: 1 }, () => ({ command: "script.list" }))], []);
    expect(answers[0]).toMatchObject({ ok: true });
    expect(answers[1]).toMatchObject({ ok: true, result: { tick: expect.any(Number) } });
  }, 60_000);
});

describe("playfield-scripts' command line", () => {
  it("should print its usage for --help and exit 0 without reading stdin", async () => {
    for (const flag of ["--help", "-h"]) {
      const run = await runBin([flag], { keepStdinOpen: true });
      expect(run).toMatchObject({ code: 0, stdout: USAGE, stderr: "" });
    }
  }, 60_000);

  it("should refuse unknown options, stray arguments and bad values with exit 2 and say why", async () => {
    // The parser's cases are in cli-args.test.ts; these check what the process does with them.
    const cases: [string[], string][] = [
      [["serve", "--bogus"], "unknown option --bogus"],
      [["--manual-ticks", "extra"], 'unknown command "extra"'],
      [["serve", "--port", "70000"], "--port must be an integer from 0 to 65535"],
    ];
    for (const [args, message] of cases) {
      const run = await runBin(args, { keepStdinOpen: true });
      expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code: 2, stdout: "" });
      expect(run.stderr).toContain(`playfield-scripts: ${message}`);
    }
  }, 60_000);

  it("should say which port is taken and how to choose another", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const run = await runBin(["serve", "--port", String(port)], { keepStdinOpen: true });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(`playfield-scripts: port ${port} is taken; choose another with --port N (0 picks a free one)\n`);
    } finally {
      taken.close();
    }
  }, 60_000);

  it("should refuse a --project folder that does not exist, and make it only with --create", async () => {
    const missing = join(projectWith({}), "my-game");
    const refused = await runBin(["--manual-ticks", "--project", missing], { keepStdinOpen: true });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--project ${missing}: no such folder (add --create to make it)`);
    expect(existsSync(missing)).toBe(false);
    const made = await runCli([{ command: "editor.scripts.files" }], ["--manual-ticks", "--project", missing, "--create"]);
    expect(made).toEqual([{ ok: true, result: [] }]);
    expect(existsSync(join(missing, "scripts"))).toBe(true);
  }, 60_000);

  it("should keep a project's declaration files of other kinds through editor.scripts.check", async () => {
    // A copy of the garden example, whose committed declarations describe the garden's kinds, not the reference world's.
    const project = join(projectWith({}), "garden");
    cpSync(EXAMPLE_PROJECT, project, { recursive: true });
    const before = ["playfield.d.ts", "playfield.pyi"].map((f) => readFileSync(join(project, "scripts", f), "utf8"));
    const [check] = await runCli([{ command: "editor.scripts.check" }], ["--manual-ticks", "--project", project]);
    const report = (check as { result: { report: string[] } }).result.report;
    expect(report).toContain("types scripts/playfield.d.ts: kept (it declares other kinds than the ones this check sees; the game's own check writes it)");
    expect(report).toContain("types scripts/playfield.pyi: kept (it declares other kinds than the ones this check sees; the game's own check writes it)");
    expect(["playfield.d.ts", "playfield.pyi"].map((f) => readFileSync(join(project, "scripts", f), "utf8"))).toEqual(before);
    // A project without them gets them written.
    const fresh = projectWith({ "scripts/door.js": "export default {}" });
    const [written] = await runCli([{ command: "editor.scripts.check" }], ["--manual-ticks", "--project", fresh]);
    expect((written as { result: { report: string[] } }).result.report).toContain("types scripts/playfield.d.ts: written");
    expect(readFileSync(join(fresh, "scripts/playfield.d.ts"), "utf8")).toContain("interface Part");
  }, 60_000);
});

import { describe, expect, it } from "vitest";
import { answerLine } from "../src/cli/command-lines.js";
import { callCommandTool } from "../src/cli/mcp-server.js";
import { z } from "zod";
import type { ScriptRuntime } from "../src/index.js";
import { MAX_TEXT_CHARS } from "../src/runtime/bounded-text.js";
import { runCli } from "./cli-process.js";
import { COUNTER, entry, list, newRuntime } from "./helpers.js";

/** A script expression making a string of 2^20 characters (doubling is one unit a step). */
const MEGABYTE = "(() => { let s = 'x'; for (let i = 0; i < 20; i++) s += s; return s })()";
/** Room for the marker after the kept characters. */
const BOUND = MAX_TEXT_CHARS + 64;

describe("bounded output", () => {
  it("should cap a thrown message in last_fault, and a load's error in the log, with a marker", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "good", source: COUNTER });
    await runtime.run("script.load", { name: "loud", source: `export default { onTick() { throw new Error(${MEGABYTE}) } }` });
    for (let i = 0; i < 3; i++) await runtime.run("script.load", { name: `broken${i}`, source: `throw new RangeError(${MEGABYTE})` });
    await runtime.step(2);
    const listed = await list(runtime);
    const loud = await entry(runtime, "loud");
    expect(loud.faults).toBe(2);
    expect(loud.last_fault!.length).toBeLessThanOrEqual(BOUND);
    expect(loud.last_fault).toMatch(/^onTick: Error: x+… \[truncated\]$/);
    const failed = listed.log.filter((l) => l.includes("did not load"));
    expect(failed).toHaveLength(3);
    for (const line of failed) {
      expect(line.length).toBeLessThanOrEqual(BOUND);
      expect(line).toMatch(/did not load: module: RangeError: x+… \[truncated\]$/);
    }
    expect((await entry(runtime, "good")).faults).toBe(0);
    expect(JSON.stringify(listed).length).toBeLessThan(8 * BOUND);
  });

  it("should cap a Python script's raised message in last_fault", async () => {
    // Describing a Python error costs the script ~45 fuel units a character: this one can afford it.
    const runtime = newRuntime({ config: { fuel_per_tick: 5_000_000 } });
    await runtime.run("script.load", { name: "loud", language: "py", source: "def on_tick(self, dt):\n    raise ValueError('y' * 20000)\n" });
    await runtime.step(1);
    const loud = await entry(runtime, "loud");
    expect(loud.last_fault!.length).toBeLessThanOrEqual(BOUND);
    expect(loud.last_fault).toMatch(/^on_tick: ValueError: y+… \[truncated\]$/);
  });

  it("should cap console lines", async () => {
    const lines: string[] = [];
    const runtime = newRuntime({ onConsole: (_script, _level, text) => lines.push(text) });
    await runtime.run("script.load", { name: "js", source: `export default { onTick() { console.log('w'.repeat(20000)) } }` });
    await runtime.run("script.load", { name: "py", language: "py", source: "def on_tick(self, dt):\n    print('z' * 60000)\n" });
    await runtime.step(1);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(BOUND);
  });

  it("should answer a command line and an MCP tool call even when the result cannot be written as JSON", async () => {
    // A result no JSON can hold stands for anything the scripts could make of the answer.
    const runtime = { dispatch: async () => ({ ok: true, result: { n: 1n } }), commands: { list: () => [{ name: "script.list", summary: "", args: z.object({}) }] } } as unknown as ScriptRuntime;
    const answer = JSON.parse(await answerLine(runtime, JSON.stringify({ command: "script.list" }))) as { ok: boolean; error: { code: string } };
    expect(answer).toMatchObject({ ok: false, error: { code: "internal" } });
    const tool = await callCommandTool(runtime, "script_list", {}).catch((e: unknown) => e);
    expect(tool).toMatchObject({ isError: true });
  });

  it("should keep every answer of the command line short while a script throws megabytes, load after load", async () => {
    const loads = Array.from({ length: 40 }, () => ({ command: "script.load", args: { name: "loud", source: `throw new Error(${MEGABYTE})` } }));
    const commands = loads.flatMap((load) => [load, { command: "runtime.step", args: { ticks: 1 } }]);
    const answers = await runCli([...commands, { command: "script.list" }]);
    expect(answers).toHaveLength(commands.length + 1);
    const last = answers.at(-1) as { ok: boolean; result: { log: string[] } };
    expect(last.ok).toBe(true);
    expect(last.result.log).toHaveLength(40);
    expect(JSON.stringify(last).length).toBeLessThan(40 * BOUND);
  }, 60_000);
});

import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import { runCli } from "./cli-process.js";
import { COUNTER } from "./helpers.js";

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
  }, 30_000);

  it("should tick in real time without --manual-ticks", async () => {
    const commands: unknown[] = [{ command: "script.load", args: { name: "c", source: COUNTER } }];
    const answers = await runCli([...commands, ...Array.from({ length: 1 }, () => ({ command: "script.list" }))], []);
    expect(answers[0]).toMatchObject({ ok: true });
    expect(answers[1]).toMatchObject({ ok: true, result: { tick: expect.any(Number) } });
  }, 30_000);
});

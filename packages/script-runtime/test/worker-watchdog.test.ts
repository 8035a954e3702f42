import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import { STOP_MARGIN_MS, workerEngines } from "../src/node.js";
import { BIN } from "./cli-process.js";
import { COUNTER, list, newRuntime } from "./helpers.js";

/**
 * A script whose `hang` event makes one native call that does not return
 * for ten seconds or more: `join` writes 4 copies of a million-bit BigInt,
 * each String() of it a quadratic native step of seconds. Fuel cannot stop
 * it (the call is charged by the array's length before it runs, and by its
 * result after), nor can the watchdog inside the engine (it runs between
 * bytecodes): only the host stopping the thread does. (In this thread, the
 * step takes the call's whole time, and the test fails.)
 */
const STUCK = "export default { onTick() { this.state.k = (this.state.k ?? 0) + 1 }, on: { hang() { Array(4).fill((1n << 1000000n) - 1n).join() } } }";
const WATCHDOG_MS = 300;
/** The neighbour is a player's script: players' scripts run in a worker of their own, apart from the creator's. */
const PLAYER = { player: "p1", roles: [], owner: true };
/** What stopping a worker and restarting its script in the spare may add (a loaded 2-core machine). */
const RESTART_MS = 1_500;

describe("the watchdog with engines in worker threads", () => {
  it("should stop a native call that never returns within the watchdog, fault the script, restore its committed state and leave a neighbour's ticks alone", async () => {
    const runtime = newRuntime({ engines: workerEngines({ workers: 2 }), config: { watchdog_ms: WATCHDOG_MS } });
    await runtime.run("script.load", { name: "stuck", source: STUCK });
    await runtime.run("script.load", { name: "neighbour", source: COUNTER, ...PLAYER });
    await runtime.step(2);
    runtime.emit("hang");
    const started = performance.now();
    await runtime.step(1);
    expect(performance.now() - started).toBeLessThan(WATCHDOG_MS + STOP_MARGIN_MS + RESTART_MS);

    const stopped = await list(runtime);
    const stuck = stopped.scripts.find((s) => s.name === "stuck")!;
    expect(stuck.faults).toBe(1);
    expect(stuck.last_fault).toBe(`onTick: ran longer than ${WATCHDOG_MS} ms of real time (watchdog_ms); its engine was stopped`);
    expect(stuck.state_hash).toBe(stateHash('{"k":2}')); // its last committed state
    expect(stopped.scripts.find((s) => s.name === "neighbour")).toMatchObject({ faults: 0, state_hash: stateHash('{"n":3}') });
    expect(stopped.log).toContain("[tick 3] restarted stuck: its engine was stopped by the watchdog");
    expect(stopped.log.some((l) => l.includes("neighbour") && l.includes("restarted"))).toBe(false);

    await runtime.step(2);
    const after = await list(runtime);
    expect(after.scripts.map((s) => [s.name, s.faults, s.state_hash])).toEqual([
      ["stuck", 1, stateHash('{"k":4}')],
      ["neighbour", 0, stateHash('{"n":5}')],
    ]);
  }, 30_000);

  it("should do the same through playfield-scripts --manual-ticks, the step answering within the watchdog", async () => {
    const child = spawn(process.execPath, [BIN, "--manual-ticks"], { cwd: fileURLToPath(new URL("../../../", import.meta.url)), stdio: ["pipe", "pipe", "inherit"] });
    const answers = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const send = async (command: string, args: unknown = {}) => {
      child.stdin.write(`${JSON.stringify({ command, args })}\n`);
      const line = await answers.next();
      return JSON.parse(line.value as string) as { ok: boolean; result: { scripts: { name: string; faults: number; last_fault: string | null; state_hash: string }[]; log: string[] } };
    };
    try {
      await send("script.load", { name: "stuck", source: STUCK });
      await send("script.load", { name: "neighbour", source: COUNTER, ...PLAYER });
      await send("runtime.step", { ticks: 2 });
      await send("runtime.emit", { event: "hang", data: null });
      const started = performance.now();
      expect((await send("runtime.step", { ticks: 1 })).ok).toBe(true);
      // The command line's default watchdog_ms is 1,000.
      expect(performance.now() - started).toBeLessThan(1_000 + STOP_MARGIN_MS + RESTART_MS);
      const { result } = await send("script.list");
      expect(result.scripts.map((s) => [s.name, s.faults, s.state_hash])).toEqual([
        ["stuck", 1, stateHash('{"k":2}')],
        ["neighbour", 0, stateHash('{"n":3}')],
      ]);
      expect(result.scripts[0]!.last_fault).toMatch(/^onTick: ran longer than 1000 ms of real time \(watchdog_ms\); its engine was stopped$/);
    } finally {
      child.stdin.end();
      child.kill();
    }
  }, 60_000);
});

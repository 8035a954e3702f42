import { describe, expect, it } from "vitest";
import { pythonEngineModule } from "../src/python/engine-module.js";
import { createPythonSandbox } from "../src/python/python-sandbox.js";
import type { StepOutcome } from "../src/engine/sandbox.js";
import { entry, newRuntime } from "./helpers.js";

/** Runs `work` with about `frames` JavaScript frames below it, as a host deep in its own calls would. */
function atDepth<T>(frames: number, work: () => T): T {
  const down = (n: number): T => (n === 0 ? work() : down(n - 1));
  return down(frames);
}

/** One tick of a Python script whose regular expression recurses once per character (and more), stepped at a given host stack depth. */
async function regexTick(hostFrames: number, length: number): Promise<{ outcome: StepOutcome; state: string }> {
  const sandbox = createPythonSandbox({
    module: await pythonEngineModule(), name: "re", memoryLimitBytes: 8 << 20, maxStateBytes: 1 << 20, loadFuel: 2_000_000,
    seed: [1, 2, 3, 4], epochMs: 0, modules: () => undefined,
  });
  sandbox.load(`import re\ndef on_tick(self, dt):\n    self.state['m'] = re.match('(a|b)*c', 'a' * ${length} + 'c') is not None\n`, undefined);
  const outcome = atDepth(hostFrames, () => sandbox.step(50, 50, [], 50_000_000));
  return { outcome, state: sandbox.stateJson() };
}

describe("Python's native recursion has a deterministic limit", () => {
  it("should give the same result for a deep regular expression whatever the host's stack holds", async () => {
    for (const length of [100, 1570, 5000]) {
      const shallow = await regexTick(0, length);
      const deep = await regexTick(6000, length);
      expect(deep, `${length} characters`).toEqual(shallow);
      expect(shallow.outcome.faults.every((f) => !f.reason.includes("engine failure")), `${length}: ${JSON.stringify(shallow.outcome.faults)}`).toBe(true);
    }
  }, 60_000);

  it("should fault a script whose regular expression nests too deep, and keep it running", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "deep", language: "py", source: "import re\ndef on_tick(self, dt):\n    self.state['n'] = self.state.get('n', 0) + 1\n    re.match('(a*)*c', 'aaac')\n" });
    await runtime.step(2);
    expect(await entry(runtime, "deep")).toMatchObject({ faults: 2, last_fault: expect.stringMatching(/^on_tick: the engine's calls nested deeper than 1000 levels/) as unknown });
  });
});

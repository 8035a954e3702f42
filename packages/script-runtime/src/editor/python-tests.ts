import type { GameKinds } from "../kinds/game-kinds.js";
import { createScriptRuntime } from "../runtime/create-script-runtime.js";
import type { ScriptList } from "../runtime/create-script-runtime.js";
import type { ModuleSource } from "../engine/sandbox.js";

/** Whether a project file is a Python test file: its name starts with `test_` (`scripts/test_door.py`, `scripts/lib/test_math.py`). */
export const isPythonTestFile = (modulePath: string) => /(^|\/)test_[^/]*\.py$/.test(modulePath);

/** The test functions of a test file, in source order: top-level `def test_…` and `async def test_…`. */
export const pythonTestNames = (source: string) => [...source.matchAll(/^(?:async\s+)?def\s+(test_\w*)\s*\(/gm)].map((m) => m[1]!);

/** The script that imports a test file's tests and runs one per `test` event, printing `["passed", name]` when it returns. */
const driver = (dotted: string, names: string[]) => `import json
from ${dotted} import ${names.join(", ")}
_tests = {${names.map((n) => `${JSON.stringify(n)}: ${n}`).join(", ")}}

async def on_test(self, name):
    r = _tests[name]()
    if r is not None:
        await r
    print(json.dumps(["passed", name]))
`;

/** Most simulated ticks one test may take (its waits included). */
const MAX_TICKS = 2_000;
const FAULT_PREFIX = /^event test( \(after await\))?: /;

/**
 * Runs one Python test file of the game's scripts (`test_*.py`) in a
 * sandbox with its own runtime and a fresh world: each top-level
 * `test_…` function in source order, as an event handler of a driver
 * script, so that a failing `assert` (or any exception) is reported as a
 * handler fault is, with file and line, and an `async def` test may
 * `await wait(ms)` while the world ticks. One report line per test
 * (`test scripts/test_x.py: test_opens: ok` or `…: failed: <reason>`).
 */
export async function runPythonTests(options: { path: string; modulePath: string; modules: ModuleSource; kinds?: GameKinds; config?: unknown }): Promise<{ ok: boolean; lines: string[] }> {
  const names = pythonTestNames(options.modules(options.modulePath) ?? "");
  if (names.length === 0) return { ok: true, lines: [`test ${options.path}: no tests`] };
  const passed = new Set<string>();
  const runtime = createScriptRuntime({
    config: options.config,
    kinds: options.kinds,
    modules: options.modules,
    onConsole: (_script, _level, text) => {
      let message: unknown;
      try { message = JSON.parse(text); } catch { return; }
      if (Array.isArray(message) && message[0] === "passed" && typeof message[1] === "string") passed.add(message[1]);
    },
  });
  try {
    const dotted = options.modulePath.replace(/\.py$/, "").split("/").join(".");
    await runtime.run("script.load", { name: "test-driver", language: "py", source: driver(dotted, names) });
    await runtime.step(1);
    const driverOf = async () => ((await runtime.run("script.list")) as ScriptList);
    const loaded = await driverOf();
    const failed = loaded.log.find((l) => l.includes("did not load"));
    if (failed) return { ok: false, lines: [`test ${options.path}: did not load: ${failed.replace(/^\[tick \d+\] test-driver did not load: /, "")}`] };
    const lines: string[] = [];
    let ok = true;
    for (const name of names) {
      const faultsBefore = loaded.scripts[0]?.faults ?? 0;
      await runtime.run("runtime.emit", { event: "test", data: name });
      let outcome: string | undefined;
      for (let ticks = 0; outcome === undefined && ticks < MAX_TICKS; ticks++) {
        await runtime.step(1);
        const script = (await driverOf()).scripts[0];
        if (passed.has(name)) outcome = "ok";
        else if (script && script.faults > faultsBefore) {
          outcome = `failed: ${(script.last_fault ?? "").replace(FAULT_PREFIX, "")}`;
          loaded.scripts[0] = script;
        }
      }
      outcome ??= `failed: did not finish within ${MAX_TICKS} ticks`;
      if (outcome !== "ok") ok = false;
      lines.push(`test ${options.path}: ${name}: ${outcome}`);
    }
    return { ok, lines };
  } finally {
    await runtime.dispose();
  }
}

import type { GameKinds } from "../kinds/game-kinds.js";
import { createScriptRuntime } from "../runtime/create-script-runtime.js";
import type { ScriptList } from "../runtime/create-script-runtime.js";
import type { ModuleSource } from "../engine/sandbox.js";

/** The module path of the assertion API scripts' tests import: `import { test, assert } from "@playfield/test"`. */
export const TEST_MODULE = "@playfield/test.js";

/** The assertion API, run inside the sandbox with the test file. */
export const TEST_MODULE_SOURCE = String.raw`
const tests = [];
export function test(name, fn) {
  if (typeof name !== "string" || typeof fn !== "function") throw new TypeError("test(name, fn)");
  tests.push([name, fn]);
}
class AssertionError extends Error {}
AssertionError.prototype.name = "AssertionError";
const canon = (v) => {
  if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
  if (v !== null && typeof v === "object") return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}";
  return v === undefined ? "undefined" : JSON.stringify(v);
};
const show = (v) => { try { return canon(v); } catch (e) { return String(v); } };
export const assert = {
  ok(value, message) { if (!value) throw new AssertionError(message ?? "expected a truthy value, got " + show(value)); },
  equal(actual, expected, message) { if (!Object.is(actual, expected)) throw new AssertionError(message ?? "expected " + show(expected) + ", got " + show(actual)); },
  notEqual(actual, expected, message) { if (Object.is(actual, expected)) throw new AssertionError(message ?? "expected a value other than " + show(expected)); },
  deepEqual(actual, expected, message) { if (canon(actual) !== canon(expected)) throw new AssertionError(message ?? "expected " + show(expected) + ", got " + show(actual)); },
  throws(fn, expected, message) {
    try { fn(); } catch (e) {
      if (expected === undefined || String(e && e.message).includes(expected)) return;
      throw new AssertionError(message ?? "expected an error with " + show(expected) + ", got " + show(String(e && e.message)));
    }
    throw new AssertionError(message ?? "expected an error");
  },
};
export async function run(report) {
  for (const [name, fn] of tests) {
    try { await fn(); report(name, null); }
    catch (e) { report(name, e instanceof Error ? e.name + ": " + e.message : "threw " + show(e)); }
  }
}
`;

/** The script that loads a test file and runs its tests, reporting through the console. */
const driver = (modulePath: string) => `import { run } from "@playfield/test";
import ${JSON.stringify(modulePath)};
export default { async onLoad() {
  await run((name, error) => console.log(JSON.stringify(["test", name, error])));
  console.log(JSON.stringify(["done"]));
} };`;

/** Most simulated ticks a test file may take (waits included). */
const MAX_TICKS = 2_000;

/**
 * Runs one test file of the game's scripts (`*.test.js`) in a sandbox with
 * its own runtime and a fresh world, and answers one report line per test
 * (`test scripts/x.test.js: <name>: ok` or `…: failed: <reason>`) and
 * whether all passed.
 */
export async function runScriptTests(options: { path: string; modulePath: string; modules: ModuleSource; kinds?: GameKinds; config?: unknown }): Promise<{ ok: boolean; lines: string[] }> {
  const lines: string[] = [];
  let ok = true;
  let done = false;
  const runtime = createScriptRuntime({
    config: options.config,
    kinds: options.kinds,
    modules: (path) => (path === TEST_MODULE ? TEST_MODULE_SOURCE : options.modules(path)),
    onConsole: (_script, _level, text) => {
      let message: unknown;
      try { message = JSON.parse(text); } catch { return; }
      if (!Array.isArray(message)) return;
      if (message[0] === "done") done = true;
      if (message[0] === "test") {
        const [, name, error] = message as [string, string, string | null];
        if (error !== null) ok = false;
        lines.push(`test ${options.path}: ${name}: ${error === null ? "ok" : `failed: ${error}`}`);
      }
    },
  });
  try {
    await runtime.run("script.load", { name: "test-driver", source: driver(options.modulePath) });
    for (let ticks = 0; !done && ticks < MAX_TICKS; ticks += 10) {
      await runtime.step(10);
      const list = (await runtime.run("script.list")) as ScriptList;
      const failed = list.log.find((l) => l.includes("did not load"));
      if (failed) return { ok: false, lines: [`test ${options.path}: did not load: ${failed.replace(/^\[tick \d+\] test-driver did not load: /, "")}`] };
      const fault = list.scripts[0]?.last_fault;
      if (fault) return { ok: false, lines: [...lines, `test ${options.path}: failed: ${fault}`] };
    }
    if (!done) return { ok: false, lines: [...lines, `test ${options.path}: did not finish within ${MAX_TICKS} ticks`] };
    if (lines.length === 0) lines.push(`test ${options.path}: no tests`);
    return { ok, lines };
  } finally {
    await runtime.dispose();
  }
}

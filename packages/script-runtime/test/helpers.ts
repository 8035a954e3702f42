import { afterEach } from "vitest";
import { createScriptRuntime } from "../src/index.js";
import type { ScriptList, ScriptRuntime, ScriptRuntimeOptions } from "../src/index.js";

const made: ScriptRuntime[] = [];
afterEach(async () => {
  for (const runtime of made.splice(0)) await runtime.dispose();
});

/** A runtime that is disposed after the test. */
export function newRuntime(options: ScriptRuntimeOptions = {}): ScriptRuntime {
  const runtime = createScriptRuntime(options);
  made.push(runtime);
  return runtime;
}

/** The `script.list` result. */
export async function list(runtime: ScriptRuntime): Promise<ScriptList> {
  return (await runtime.run("script.list")) as ScriptList;
}

/** The entry of one script in `script.list`. */
export async function entry(runtime: ScriptRuntime, name: string) {
  const found = (await list(runtime)).scripts.find((s) => s.name === name);
  if (!found) throw new Error(`${name} is not listed`);
  return found;
}

/** A script that counts its ticks in `this.state.n`. */
export const COUNTER = "export default { init() { return { n: 0 } }, onTick() { this.state.n += 1 } }";

/** A script whose state hash tells its `n`: it exposes nothing else. */
export const counterAt = (n: number) => `export default { init() { return { n: ${n} } } }`;

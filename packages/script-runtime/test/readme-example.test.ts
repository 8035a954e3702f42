import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import * as scriptRuntime from "../src/index.js";
import type { ScriptList } from "../src/index.js";
import { stateHash } from "../src/index.js";

const README = new URL("../README.md", import.meta.url);

/** The README's TypeScript example, and the names it imports from the package. */
async function readmeExample(): Promise<{ imports: string[]; body: string }> {
  const text = await readFile(README, "utf8");
  const block = /```ts\n([\s\S]*?)```/.exec(text)?.[1];
  if (block === undefined) throw new Error("the README has no ts example");
  const imported = /^import \{([^}]*)\} from "@playfield\/script-runtime";\n/m.exec(block);
  if (!imported) throw new Error("the README example does not import from @playfield/script-runtime");
  return { imports: imported[1]!.split(",").map((name) => name.trim()), body: block.replace(imported[0], "") };
}

describe("README example", () => {
  it("should run as written and print what its comment says", async () => {
    const { imports, body } = await readmeExample();
    const exports = scriptRuntime as Record<string, unknown>;
    for (const name of imports) expect(exports[name], name).toBeDefined();
    const printed: unknown[] = [];
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
    const run = new AsyncFunction(...imports, "console", body);
    await run(...imports.map((name) => exports[name]), { log: (value: unknown) => printed.push(value) });
    expect(printed).toHaveLength(1);
    const list = printed[0] as ScriptList;
    expect(list).toMatchObject({ tick: 10, sim_ms: 500, log: ["[tick 1] loaded counter"] });
    expect(list.chain).toMatch(/^[0-9a-f]{64}$/);
    expect(list.scripts).toHaveLength(1);
    expect(list.scripts[0]).toMatchObject({ name: "counter", faults: 0, state_hash: stateHash('{"n":10}') });
    expect(list.scripts[0]!.fuel_used).toBeGreaterThan(0);
  });
});

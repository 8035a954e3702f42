import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { checkImports, engineImports } from "../src/python/engine-imports.js";
import { pythonEngineModule } from "../src/python/engine-module.js";
import { ENGINE_WASM_PATH, engineWasmFile } from "../src/python/engine-wasm-file.js";
import { EngineTrap } from "../src/python/engine-traps.js";
import { createMicroPython } from "../src/python/micropython-instance.js";

const root = new URL("../../../", import.meta.url);
const require = createRequire(import.meta.url);

const options = { memoryLimitBytes: 4 << 20, heapBytes: 128 << 10, pystackBytes: 16 << 10, nowMs: () => 0, randomU32: () => 1, outputCapBytes: 4096 };

/** A wasm module importing `env.<name>` (a function of no arguments), by hand. */
function moduleImporting(name: string): WebAssembly.Module {
  const field = [...new TextEncoder().encode(name)];
  const entry = [3, ...new TextEncoder().encode("env"), field.length, ...field, 0, 0];
  const imports = [1, ...entry];
  return new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 0x60, 0, 0, 2, imports.length, ...imports]));
}

describe("the Python engine", () => {
  it("should be the pinned package's wasm rewritten by engine-rewrite.ts (run `npm run gen:python`)", () => {
    const shipped = readFileSync(require.resolve("@micropython/micropython-webassembly-pyscript/micropython.wasm"));
    const committed = readFileSync(new URL(ENGINE_WASM_PATH, root), "utf8");
    expect(committed === engineWasmFile(shipped), `${ENGINE_WASM_PATH} is out of date: run npm run gen:python`).toBe(true);
  }, 300_000);

  it("should refuse to start a module that asks for an import the loader does not know", () => {
    const host = engineImports({ memory: () => { throw new Error("unused"); }, nowMs: () => 0, randomU32: () => 0, write: () => {}, memoryLimitBytes: 0, fuelExhausted: () => { throw new Error("unused"); }, depthExceeded: () => { throw new Error("unused"); } });
    expect(() => checkImports(moduleImporting("fuel_exhausted"), host)).not.toThrow();
    expect(() => checkImports(moduleImporting("emscripten_date_now"), host)).toThrow(/asks for an import this loader does not know: env\.emscripten_date_now/);
  });

  it("should meter Python exactly: the same fuel for the same work, in proportion to the work", async () => {
    const module = await pythonEngineModule();
    const fuelOf = (source: string) => {
      const mp = createMicroPython(module, options);
      mp.fuel = 1e9;
      mp.exec(source);
      return 1e9 - mp.fuel;
    };
    const setup = fuelOf("s = 'ab' * 20000");
    const once = fuelOf("s = 'ab' * 20000\ns.count('b')") - setup;
    const twice = fuelOf("s = 'ab' * 40000\ns.count('b')") - fuelOf("s = 'ab' * 40000");
    expect(fuelOf("s = 'ab' * 20000\ns.count('b')") - setup).toBe(once);
    // Built-in C work is wasm loops, so it is charged: about twice the characters, about twice the fuel.
    expect(twice / once).toBeGreaterThan(1.9);
    expect(twice / once).toBeLessThan(2.1);
  });

  it("should stop at the fuel given, past any except or finally, and answer a JavaScript bridge call with a trap", async () => {
    const module = await pythonEngineModule();
    const out: string[] = [];
    const mp = createMicroPython(module, { ...options, onOutput: (t) => out.push(t) });
    mp.fuel = 100_000;
    expect(() => mp.exec("try:\n    while True:\n        pass\nexcept BaseException:\n    print('caught')\nfinally:\n    print('finally')")).toThrow(EngineTrap);
    expect(out).toEqual([]);
    const bridge = createMicroPython(module, options);
    bridge.fuel = 1e7;
    expect(() => bridge.exec("import js\njs.globalThis.process")).toThrow(/not reachable from scripts/);
  });

  it("should refuse heap growth past the memory limit with a trap", async () => {
    const mp = createMicroPython(await pythonEngineModule(), options);
    mp.fuel = 1e9;
    expect(() => mp.exec("x = bytearray(8 << 20)")).toThrow(/out of memory \(memory limit 4194304 bytes\)/);
    expect(mp.memoryBytes()).toBeLessThanOrEqual(4 << 20);
  });
});

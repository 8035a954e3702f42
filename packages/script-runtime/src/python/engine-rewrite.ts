import binaryen from "binaryen";

/** The npm package whose wasm is rewritten, pinned by version (package.json) and by the wasm's SHA-256. */
export const MICROPYTHON_PACKAGE = "@micropython/micropython-webassembly-pyscript";
export const MICROPYTHON_VERSION = "1.27.0";
export const MICROPYTHON_WASM_SHA256 = "06338c955b03c5700aa0069015d3e392d76836ef8e2ce25bedbe59b88ccd373c";

/** Largest memory a Python script may have (the configuration's 512 MiB); the loader enforces each script's own limit below it. */
export const MAX_MEMORY_PAGES = 8192;
/** Memory at start: the static data and stack fit in it, the heap grows through `emscripten_resize_heap`. */
export const INITIAL_MEMORY_PAGES = 4;

/**
 * Rewrites MicroPython's wasm so that a script's work is metered inside the
 * engine: binaryen's `log-execution` pass puts a probe at every function
 * entry and loop header; each probe becomes an inlined
 * `fuel -= 1; if (fuel < 0) env.fuel_exhausted()` on the exported global
 * `fuel`, so every Python bytecode and every loop of built-in C work costs
 * fuel, and running out calls the host, which throws through the engine.
 * The memory's limits are set (4 pages at start, 512 MiB at most) and the
 * module is optimised. The result is a pure function of the input bytes
 * and the pinned binaryen version.
 *
 * @example
 * const wasm = rewriteMicroPython(readFileSync(".../micropython.wasm"));
 */
export function rewriteMicroPython(input: Uint8Array): Uint8Array {
  const module = binaryen.readBinary(input);
  try {
    module.runPasses(["log-execution"]);
    module.removeFunction("log_execution");
    module.addGlobal("fuel", binaryen.i32, true, module.i32.const(0));
    module.addGlobalExport("fuel", "fuel");
    module.addFunctionImport("fuel_exhausted", "env", "fuel_exhausted", binaryen.none, binaryen.none);
    const fuel = () => module.global.get("fuel", binaryen.i32);
    module.addFunction("log_execution", binaryen.createType([binaryen.i32]), binaryen.none, [], module.block(null, [
      module.global.set("fuel", module.i32.sub(fuel(), module.i32.const(1))),
      module.if(module.i32.lt_s(fuel(), module.i32.const(0)), module.call("fuel_exhausted", [], binaryen.none)),
    ]));
    if (!module.validate()) throw new Error("the rewritten module does not validate");
    binaryen.setOptimizeLevel(2);
    binaryen.setShrinkLevel(0);
    // The probe (about ten nodes) is inlined at each of its call sites.
    binaryen.setAlwaysInlineMaxSize(16);
    module.optimize();
    return setMemoryLimits(module.emitBinary(), INITIAL_MEMORY_PAGES, MAX_MEMORY_PAGES);
  } finally {
    module.dispose();
  }
}

/** Rewrites the (only) memory's limits in a wasm binary's memory section. */
export function setMemoryLimits(wasm: Uint8Array, initial: number, maximum: number): Uint8Array {
  let at = 8;
  while (at < wasm.length) {
    const id = wasm[at]!;
    const [size, sizeEnd] = readLeb(wasm, at + 1);
    if (id === 5) {
      const body = [1, 1, ...leb(initial), ...leb(maximum)];
      const section = [5, ...leb(body.length), ...body];
      const out = new Uint8Array(wasm.length - (sizeEnd + size - at) + section.length);
      out.set(wasm.subarray(0, at), 0);
      out.set(section, at);
      out.set(wasm.subarray(sizeEnd + size), at + section.length);
      return out;
    }
    at = sizeEnd + size;
  }
  throw new Error("the module has no memory section");
}

function readLeb(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++]!;
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if ((b & 0x80) === 0) return [value, at];
  }
}

function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let b = value & 0x7f;
    value = Math.floor(value / 128);
    if (value > 0) b |= 0x80;
    out.push(b);
  } while (value > 0);
  return out;
}

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
 * setjmp/longjmp, which Emscripten leaves to JavaScript (`invoke_*`
 * trampolines around every call that may longjmp, some fifty per handler
 * call), is done inside the module with WebAssembly exceptions: each
 * `invoke_*` import becomes a function that calls through the table inside
 * a `try` catching only the module's own longjmp tag, and
 * `_emscripten_throw_longjmp` throws that tag. A host trap (fuel, memory)
 * is a JavaScript exception, which no such `catch` stops. These functions
 * are added after the probes, so they cost no fuel: a unit is what it was.
 * The memory's limits are set (4 pages at start, 512 MiB at most) and the
 * module is optimised. The result is a pure function of the input bytes
 * and the pinned binaryen version; `{ fuel: false }` leaves the probes out
 * (the bench's unmetered engine).
 *
 * @example
 * const wasm = rewriteMicroPython(readFileSync(".../micropython.wasm"));
 */
export function rewriteMicroPython(input: Uint8Array, { fuel: metered = true } = {}): Uint8Array {
  const module = binaryen.readBinary(input);
  try {
    if (metered) {
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
    }
    if (metered) limitDepth(module);
    longjmpInside(module, metered);
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

/** The tag of a longjmp inside the module: only the `invoke_*` functions catch it. */
const LONGJMP_TAG = "playfield_longjmp";

/**
 * How many calls deep the engine's own functions may nest before the call
 * stops (`env.depth_exceeded`). Each wasm call also takes room on the
 * host's native stack, whose size depends on the host (and on how the
 * engine compiled the function, which changes as it warms up): a native
 * overflow is a different result on different runs. This limit is reached
 * first on every host, so a deep regular expression fails the same way
 * everywhere.
 */
export const MAX_CALL_DEPTH = 1000;

/**
 * Counts call depth in the exported global `depth`: every defined function
 * becomes a wrapper that adds one, checks the limit, calls the original
 * body (a function of its own, inlined back by the optimiser) and takes
 * one off. A longjmp unwinds frames without taking off: each `invoke_*`
 * puts the depth back as it was (see {@link longjmpInside}).
 */
function limitDepth(module: binaryen.Module): void {
  module.addGlobal("depth", binaryen.i32, true, module.i32.const(0));
  module.addGlobalExport("depth", "depth");
  module.addGlobal("depth_limit", binaryen.i32, true, module.i32.const(MAX_CALL_DEPTH));
  module.addGlobalExport("depth_limit", "depth_limit");
  module.addFunctionImport("depth_exceeded", "env", "depth_exceeded", binaryen.none, binaryen.none);
  const defined: binaryen.FunctionInfo[] = [];
  for (let i = 0; i < module.getNumFunctions(); i++) {
    const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
    if (info.module === "" && info.name !== "log_execution") defined.push(info);
  }
  const depth = () => module.global.get("depth", binaryen.i32);
  for (const info of defined) {
    const inner = `${info.name}$body`;
    module.addFunction(inner, info.params, info.results, info.vars, info.body);
    module.removeFunction(info.name);
    const params = binaryen.expandType(info.params);
    const args = params.map((type, i) => module.local.get(i, type));
    const result = params.length;
    const call = module.call(inner, args, info.results);
    module.addFunction(info.name, info.params, info.results, info.results === binaryen.none ? [] : [info.results], module.block(null, [
      module.global.set("depth", module.i32.add(depth(), module.i32.const(1))),
      module.if(module.i32.gt_u(depth(), module.global.get("depth_limit", binaryen.i32)), module.call("depth_exceeded", [], binaryen.none)),
      info.results === binaryen.none ? call : module.local.set(result, call),
      module.global.set("depth", module.i32.sub(depth(), module.i32.const(1))),
      ...(info.results === binaryen.none ? [] : [module.local.get(result, info.results)]),
    ], info.results));
  }
}

/** Replaces the `invoke_*` and `_emscripten_throw_longjmp` imports with functions of the module (see {@link rewriteMicroPython}). */
function longjmpInside(module: binaryen.Module, depthCounted: boolean): void {
  module.setFeatures(module.getFeatures() | binaryen.Features.ExceptionHandling);
  module.addTag(LONGJMP_TAG, binaryen.none, binaryen.none);
  const exported = (name: string) => binaryen.getExportInfo(module.getExport(name)).value;
  const stackSave = exported("emscripten_stack_get_current");
  const stackRestore = exported("_emscripten_stack_restore");
  const setThrew = exported("setThrew");
  const table = binaryen.getTableInfo(module.getTableByIndex(0)).name;
  const imports: binaryen.FunctionInfo[] = [];
  for (let i = 0; i < module.getNumFunctions(); i++) {
    const info = binaryen.getFunctionInfo(module.getFunctionByIndex(i));
    if (info.module === "env" && info.base && (info.base.startsWith("invoke_") || info.base === "_emscripten_throw_longjmp")) imports.push(info);
  }
  for (const info of imports) {
    module.removeFunction(info.name);
    if (info.base === "_emscripten_throw_longjmp") {
      module.addFunction(info.name, info.params, info.results, [], module.throw(LONGJMP_TAG, []));
      continue;
    }
    // (index, args...): call the table's function index with args; on a longjmp, restore the stack and tell the caller through setThrew, as Emscripten's JavaScript does.
    const params = binaryen.expandType(info.params);
    const args = params.slice(1).map((type, i) => module.local.get(i + 1, type));
    const sp = params.length;
    const savedDepth = sp + 1;
    const call = module.call_indirect(table, module.local.get(0, binaryen.i32), args, binaryen.createType(params.slice(1)), info.results);
    const caught = module.block(null, [
      module.call(stackRestore, [module.local.get(sp, binaryen.i32)], binaryen.none),
      ...(depthCounted ? [module.global.set("depth", module.local.get(savedDepth, binaryen.i32))] : []),
      module.call(setThrew, [module.i32.const(1), module.i32.const(0)], binaryen.none),
      ...(info.results === binaryen.none ? [] : [module.i32.const(0)]),
    ], info.results);
    module.addFunction(info.name, info.params, info.results, [binaryen.i32, binaryen.i32], module.block(null, [
      module.local.set(sp, module.call(stackSave, [], binaryen.i32)),
      ...(depthCounted ? [module.local.set(savedDepth, module.global.get("depth", binaryen.i32))] : []),
      module.try("", call, [LONGJMP_TAG], [caught]),
    ], info.results));
  }
  if (imports.length === 0) throw new Error("the module has no invoke_* imports: this MicroPython build is not supported");
}

/** Rewrites the (only) memory's limits in a wasm binary's memory section. *//** Rewrites the (only) memory's limits in a wasm binary's memory section. */
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

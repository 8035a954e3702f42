import { HOST_REF, checkImports, engineImports } from "./engine-imports.js";
import { EngineTrap } from "./engine-traps.js";

/** Limits and host services of one MicroPython instance. */
export interface MicroPythonOptions {
  /** The instance's whole memory (static data, stack, heap) may not grow past this. */
  memoryLimitBytes: number;
  /** MicroPython's first garbage-collected heap; it grows in further chunks up to the memory limit. */
  heapBytes: number;
  /** How deep the engine's own calls may nest (default: the rewrite's `MAX_CALL_DEPTH`). */
  maxCallDepth?: number;
  /** MicroPython's own stack of Python frames (deep recursion raises RecursionError inside it). */
  pystackBytes: number;
  /** The simulated clock, ms since the epoch. */
  nowMs(): number;
  randomU32(): number;
  /** Output of `print` and tracebacks; at most `outputCapBytes` per call reach it. */
  onOutput?: (text: string) => void;
  outputCapBytes: number;
  /** The game's API, reached from Python as `_playfield_host(op, args)` (two str, answering a str); without it that call is a trap. */
  hostCall?: (op: string, args: string) => string;
}

/** What a call answered: Python's None, bool, int, float or str, or a reference to another object. */
export type PyValue = null | boolean | number | string | { ref: number; callable: boolean };

/** A Python exception that came out of a call (the instance is still usable). */
export class PythonError extends Error {
  override name = "PythonError";
  constructor(readonly type: string, readonly detail: string) {
    super(detail);
  }
}

/** A started interpreter's whole state: its memory and its stack pointer, to start others from without running anything again. */
export interface EngineSnapshot {
  memory: Uint8Array;
  stackPointer: number;
  out: number;
}

/** One MicroPython interpreter in its own WebAssembly instance. */
export interface MicroPython {
  /** The interpreter's state now, for {@link createMicroPython}'s `from`. */
  snapshot(): EngineSnapshot;
  /** Fuel left: set before a call, read after it. */
  fuel: number;
  /** Runs Python source as the main module; answers the value of a final expression (or None). */
  exec(source: string): PyValue;
  /** Calls a callable that an earlier answer referenced, with numbers and strings. */
  call(ref: number, args: readonly (number | string)[]): PyValue;
  /** A global of the `__main__` module (what the prelude defined). */
  global(name: string): PyValue;
  /** Bytes of memory the instance holds. */
  memoryBytes(): number;
  /** The instance's memory as it is now (a view made again only when the memory has grown). */
  memory(): Uint8Array;
}

const KIND_EXCEPTION = -1;
const KIND_NONE = 1;
const KIND_BOOL = 2;
const KIND_INT = 3;
const KIND_FLOAT = 4;
const KIND_STR = 5;
const KIND_CALLABLE = 6;
const JS_INTEGER = 3;
const ARGS = 8;
const JS_DOUBLE = 4;
const JS_STRING = 5;
const JS_OBJECT = 7;
const MP_STR = 5;
/** The module through which the prelude reaches the host's API (see `hostCall`). */
export const HOST_MODULE = "_playfield_host";
/** Fuel for starting the interpreter and for the host's own calls (malloc, free), which are metered like everything in the engine. */
const HOUSEKEEPING_FUEL = 1 << 30;

interface Exports {
  memory: WebAssembly.Memory;
  fuel?: WebAssembly.Global;
  /** How deep the engine's calls are (see `MAX_CALL_DEPTH`; not in the shipped wasm). */
  depth?: WebAssembly.Global;
  depth_limit?: WebAssembly.Global;
  __wasm_call_ctors(): void;
  emscripten_stack_init(): void;
  emscripten_stack_get_current(): number;
  _emscripten_stack_restore(sp: number): void;
  malloc(size: number): number;
  free(ptr: number): void;
  mp_js_init(pystack: number, heap: number): void;
  proxy_c_init(): void;
  mp_js_do_exec(src: number, len: number, out: number): void;
  proxy_c_to_js_call(ref: number, nargs: number, args: number, out: number): void;
  mp_js_do_import(name: number, out: number): void;
  mp_js_register_js_module(name: number, value: number): void;
  proxy_c_to_js_lookup_attr(ref: number, name: number, out: number): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Starts a MicroPython interpreter from the rewritten module. Refuses a
 * module that asks for an import the loader does not know.
 */
export function createMicroPython(module: WebAssembly.Module, options: MicroPythonOptions, from?: EngineSnapshot): MicroPython {
  let exports: Exports | undefined;
  const ex = () => exports!;
  let written = 0;
  let pending = "";
  const imports = engineImports({
    memory: () => ex().memory,
    nowMs: options.nowMs,
    randomU32: options.randomU32,
    write: (_fd, bytes) => {
      const room = options.outputCapBytes - written;
      if (room <= 0) return;
      const kept = bytes.length > room ? bytes.subarray(0, room) : bytes;
      written += kept.length;
      pending += decoder.decode(kept, { stream: true });
    },
    memoryLimitBytes: options.memoryLimitBytes,
    fuelExhausted: () => { throw new EngineTrap("out of fuel", "out of fuel"); },
    depthExceeded: () => { throw new EngineTrap("too deep", `the engine's calls nested deeper than ${depthLimit.value} levels (a deep regular expression or repr)`); },
    hostCall2: options.hostCall ? (_viaCall, a0, a1, target) => {
      views();
      const text = (at: number) => {
        if (view.getInt32(at, true) !== MP_STR) throw new EngineTrap("host unreachable", "the game's API takes two str");
        const start = view.getUint32(at + 8, true);
        return decoder.decode(bytes.subarray(start, start + view.getUint32(at + 4, true)));
      };
      const answerText = options.hostCall!(text(a0), text(a1));
      // The engine frees the string once it has made a Python str of it.
      const encoded = encoder.encode(answerText);
      const ptr = housekeeping(() => e.malloc(encoded.length + 1));
      views();
      bytes.set(encoded, ptr);
      bytes[ptr + encoded.length] = 0;
      view.setInt32(target, JS_STRING, true);
      view.setInt32(target + 4, encoded.length, true);
      view.setInt32(target + 8, ptr, true);
    } : undefined,
  });
  checkImports(module, imports);
  const instance = new WebAssembly.Instance(module, imports);
  exports = instance.exports as unknown as Exports;
  const e = exports;
  // The shipped (unmetered) wasm has no fuel global: benches run it through this loader too.
  const fuel = e.fuel ?? { value: 0 };
  const depth = e.depth ?? { value: 0 };
  const depthLimit = e.depth_limit ?? { value: 0 };
  if (options.maxCallDepth !== undefined) depthLimit.value = options.maxCallDepth;
  fuel.value = HOUSEKEEPING_FUEL;
  e.emscripten_stack_init();
  let out: number;
  if (from) {
    // The same module started the same way: copying its memory and stack pointer is starting it again, without the work.
    if (from.memory.length > options.memoryLimitBytes) throw new EngineTrap("out of memory", `out of memory (memory limit ${options.memoryLimitBytes} bytes)`);
    const pages = (from.memory.length - e.memory.buffer.byteLength) / 65536;
    if (pages > 0) e.memory.grow(pages);
    new Uint8Array(e.memory.buffer).set(from.memory);
    e._emscripten_stack_restore(from.stackPointer);
    out = from.out;
  } else {
    e.__wasm_call_ctors();
    e.mp_js_init(options.pystackBytes, options.heapBytes);
    e.proxy_c_init();
    out = e.malloc(16);
    const value = e.malloc(12);
    new DataView(e.memory.buffer).setInt32(value, JS_OBJECT, true);
    new DataView(e.memory.buffer).setInt32(value + 4, HOST_REF, true);
    const name = encoder.encode(HOST_MODULE);
    const namePtr = e.malloc(name.length + 1);
    new Uint8Array(e.memory.buffer).set([...name, 0], namePtr);
    e.mp_js_register_js_module(namePtr, value);
  }

  let argv: number | undefined;
  const flush = () => {
    if (pending !== "" && options.onOutput) options.onOutput(pending);
    pending = "";
    written = 0;
  };
  /** Reads an answer, freeing what the engine allocated for it. */
  // Views of the memory, made again only when it has grown: growing detaches the old buffer, which then has no bytes (a cheaper test than reading memory.buffer).
  let view = new DataView(new ArrayBuffer(0));
  let bytes = new Uint8Array(0);
  const views = () => {
    if (bytes.byteLength === 0) {
      view = new DataView(e.memory.buffer);
      bytes = new Uint8Array(view.buffer);
    }
  };
  /** A short ASCII answer is read without TextDecoder, whose call costs more than the text. */
  const readText = (start: number, length: number): string => {
    if (length <= 64) {
      let text = "";
      for (let i = start; i < start + length; i++) {
        const c = bytes[i]!;
        if (c >= 128) return decoder.decode(bytes.subarray(start, start + length));
        text += String.fromCharCode(c);
      }
      return text;
    }
    return decoder.decode(bytes.subarray(start, start + length));
  };
  const answer = (): PyValue => {
    views();
    const kind = view.getInt32(out, true);
    switch (kind) {
      case KIND_NONE: return null;
      case KIND_BOOL: return view.getInt32(out + 4, true) !== 0;
      case KIND_INT: return view.getInt32(out + 4, true);
      case KIND_FLOAT: return view.getFloat64(out + 4, true);
      case KIND_STR: return readText(view.getUint32(out + 8, true), view.getUint32(out + 4, true));
      case KIND_EXCEPTION: {
        const ptr = view.getUint32(out + 8, true);
        const text = decoder.decode(new Uint8Array(e.memory.buffer, ptr, view.getUint32(out + 4, true)));
        housekeeping(() => e.free(ptr));
        const split = text.indexOf("\x04");
        throw split < 0 ? new PythonError("Exception", text) : new PythonError(text.slice(0, split), text.slice(split + 1));
      }
      default: return { ref: view.getInt32(out + 4, true), callable: kind === KIND_CALLABLE };
    }
  };
  const housekeeping = <T>(f: () => T): T => {
    const left = fuel.value as number;
    fuel.value = HOUSEKEEPING_FUEL;
    try {
      return f();
    } finally {
      fuel.value = left;
    }
  };
  const withString = <T>(text: string, f: (ptr: number, len: number) => T): T => {
    const encoded = encoder.encode(text);
    const ptr = housekeeping(() => e.malloc(encoded.length + 1));
    new Uint8Array(e.memory.buffer).set(encoded, ptr);
    new Uint8Array(e.memory.buffer)[ptr + encoded.length] = 0;
    try {
      return f(ptr, encoded.length);
    } finally {
      housekeeping(() => e.free(ptr));
    }
  };

  return {
    snapshot: () => ({ memory: new Uint8Array(e.memory.buffer).slice(), stackPointer: e.emscripten_stack_get_current(), out }),
    get fuel() { return fuel.value as number; },
    set fuel(value: number) { fuel.value = value; },
    exec(source) {
      depth.value = 0;
      try {
        return withString(source, (ptr, len) => {
          e.mp_js_do_exec(ptr, len, out);
          return answer();
        });
      } finally {
        flush();
      }
    },
    call(ref, args) {
      // Up to ARGS arguments go in a buffer allocated once; a tick's call allocates nothing here.
      const argBuffer = (argv ??= housekeeping(() => e.malloc(12 * ARGS)));
      if (args.length > ARGS) throw new Error(`at most ${ARGS} arguments`);
      try {
        views();
        for (let i = 0; i < args.length; i++) {
          const arg = args[i]!;
          const at = argBuffer + 12 * i;
          if (typeof arg === "string") {
            const encoded = encoder.encode(arg);
            const ptr = housekeeping(() => e.malloc(encoded.length + 1));
            // The engine frees the string once it has made a Python str of it.
            views();
            bytes.set(encoded, ptr);
            view.setInt32(at, JS_STRING, true);
            view.setInt32(at + 4, encoded.length, true);
            view.setInt32(at + 8, ptr, true);
          } else if (Number.isInteger(arg) && arg >= -(2 ** 31) && arg < 2 ** 31) {
            view.setInt32(at, JS_INTEGER, true);
            view.setInt32(at + 4, arg, true);
          } else {
            view.setInt32(at, JS_DOUBLE, true);
            view.setFloat64(at + 4, arg, true);
          }
        }
        // Each call from the host starts at the bottom (a trap left the count where it stopped).
        depth.value = 0;
        e.proxy_c_to_js_call(ref, args.length, argBuffer, out);
        return answer();
      } finally {
        flush();
      }
    },
    global(name) {
      const main = withString("__main__", (ptr) => {
        e.mp_js_do_import(ptr, out);
        return answer();
      });
      if (main === null || typeof main !== "object") throw new Error("the engine has no __main__ module");
      return withString(name, (ptr) => {
        e.proxy_c_to_js_lookup_attr(main.ref, ptr, out);
        return answer();
      });
    },
    memoryBytes: () => e.memory.buffer.byteLength,
    memory() {
      views();
      return bytes;
    },
  };
}

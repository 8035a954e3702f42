import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten";
import type { ValueTags } from "./answer-layout.js";

/**
 * The answer of a handler call, read without handle objects: what it threw,
 * that nothing ran (undefined), that a timer is due (a symbol), or the state
 * as binary JSON in `bytes[start, end)` (a view of the engine's memory,
 * valid until `release(start)`).
 */
export type DirectAnswer =
  | { kind: "thrown"; error: QuickJSHandle }
  | { kind: "nothing" }
  | { kind: "timers due" }
  | { kind: "state"; bytes: Uint8Array; start: number; end: number }
  | { kind: "unwritable"; error: QuickJSHandle }
  | { kind: "out of memory" };

/**
 * DirectCalls calls functions of one QuickJS context with number arguments
 * and reads their answers straight through quickjs-emscripten's C
 * functions: no handle objects for the arguments or the answer. A tick of a
 * small script is a few microseconds of interpreter work, and the public
 * `callFunction` with its handles costs about as much again, so the calls
 * made on every tick go this way.
 *
 * A state answer is written as binary JSON by the engine (native code,
 * several times faster than walking the state in interpreted code) and read
 * by the host from the engine's memory.
 */
export interface DirectCalls {
  /** Calls `fn` (with `this` undefined) with up to four numbers. */
  call(fn: QuickJSHandle, ...numbers: number[]): DirectAnswer;
  /**
   * The same call of `fn` with two numbers, its pointers read once: the
   * call made on every tick touches no handle objects (with a thousand
   * scripts, each object a tick reads is likely out of the cache).
   */
  bind2(fn: QuickJSHandle): (a: number, b: number) => DirectAnswer;
  /** The same for a call of `fn` with no arguments (nothing to allocate in the engine). */
  bind0(fn: QuickJSHandle): () => DirectAnswer;
  /** Reads the answer of a call made through the public API (the handle is kept by the caller). */
  read(result: QuickJSHandle): DirectAnswer;
  /** Frees the bytes of a state answer. */
  release(start: number): void;
  /** Whether the context's runtime has promise jobs queued. */
  hasPendingJob(): boolean;
  dispose(): void;
}

/** The parts of quickjs-emscripten's context object a direct call uses (not its public API). */
interface ContextInternals {
  ctx: { value: number };
  rt: { value: number };
  ffi: {
    QTS_IsJobPending(rt: number): number;
    QTS_NewFloat64(ctx: number, value: number): number;
    QTS_Call(ctx: number, fn: number, self: number, argc: number, argv: number): number;
    QTS_ResolveException(ctx: number, value: number): number;
    QTS_FreeValuePointer(ctx: number, value: number): void;
    QTS_bjson_encode(ctx: number, value: number): number;
    QTS_GetArrayBuffer(ctx: number, value: number): number;
    QTS_GetArrayBufferLength(ctx: number, value: number): number;
  };
  module: { _malloc(bytes: number): number; _free(pointer: number): void; HEAPU8: Uint8Array };
  memory: { heapValueHandle(pointer: number): QuickJSHandle };
}

const MAX_ARGS = 4;

/**
 * Creates the direct calls of a context whose module memory is `heap32`.
 * Throws when this quickjs-emscripten build does not have the expected
 * shape (the version is pinned; a new one must be checked).
 */
export function createDirectCalls(context: QuickJSContext, heap32: Int32Array, tags: ValueTags): DirectCalls {
  const inner = context as unknown as Partial<ContextInternals>;
  if (!hasInternals(inner)) throw new Error("quickjs-emscripten's internals changed: scripts cannot be called directly");
  const { ffi, module, memory } = inner;
  const ctx = inner.ctx.value;
  const rt = inner.rt.value;
  const undefinedValue = context.undefined.value;
  const argv = module._malloc(MAX_ARGS * 4);
  const args = new Array<number>(MAX_ARGS).fill(0);

  /** Reads the answer at `result`; frees it when `owned`. */
  const answer = (result: number, owned: boolean): DirectAnswer => {
    const error = ffi.QTS_ResolveException(ctx, result);
    if (error) {
      if (owned) ffi.QTS_FreeValuePointer(ctx, result);
      return { kind: "thrown", error: memory.heapValueHandle(error) };
    }
    const tag = heap32[(result >> 2) + 1];
    if (tag === tags.undefined || tag === tags.symbol) {
      if (owned) ffi.QTS_FreeValuePointer(ctx, result);
      return tag === tags.undefined ? { kind: "nothing" } : { kind: "timers due" };
    }
    const encoded = ffi.QTS_bjson_encode(ctx, result);
    if (owned) ffi.QTS_FreeValuePointer(ctx, result);
    const failed = ffi.QTS_ResolveException(ctx, encoded);
    if (failed) {
      ffi.QTS_FreeValuePointer(ctx, encoded);
      return { kind: "unwritable", error: memory.heapValueHandle(failed) };
    }
    // The bytes are a copy (quickjs-emscripten's), freed with the buffer on release.
    const length = ffi.QTS_GetArrayBufferLength(ctx, encoded);
    const start = ffi.QTS_GetArrayBuffer(ctx, encoded);
    ffi.QTS_FreeValuePointer(ctx, encoded);
    if (!start) return { kind: "out of memory" };
    return { kind: "state", bytes: module.HEAPU8, start, end: start + length };
  };

  return {
    call(fn, ...numbers) {
      if (numbers.length > MAX_ARGS) throw new RangeError(`a direct call takes at most ${MAX_ARGS} arguments`);
      for (let i = 0; i < numbers.length; i++) {
        args[i] = ffi.QTS_NewFloat64(ctx, numbers[i]!);
        heap32[(argv >> 2) + i] = args[i]!;
      }
      const result = ffi.QTS_Call(ctx, fn.value, undefinedValue, numbers.length, argv);
      for (let i = 0; i < numbers.length; i++) ffi.QTS_FreeValuePointer(ctx, args[i]!);
      return answer(result, true);
    },
    bind2(fn) {
      const fnPointer = fn.value;
      return (a, b) => {
        const first = ffi.QTS_NewFloat64(ctx, a);
        const second = ffi.QTS_NewFloat64(ctx, b);
        heap32[argv >> 2] = first;
        heap32[(argv >> 2) + 1] = second;
        const result = ffi.QTS_Call(ctx, fnPointer, undefinedValue, 2, argv);
        ffi.QTS_FreeValuePointer(ctx, first);
        ffi.QTS_FreeValuePointer(ctx, second);
        return answer(result, true);
      };
    },
    bind0(fn) {
      const fnPointer = fn.value;
      return () => answer(ffi.QTS_Call(ctx, fnPointer, undefinedValue, 0, argv), true);
    },
    read: (result) => answer(result.value, false),
    release: (start) => module._free(start),
    hasPendingJob: () => ffi.QTS_IsJobPending(rt) !== 0,
    dispose() {
      module._free(argv);
    },
  };
}

function hasInternals(inner: Partial<ContextInternals>): inner is ContextInternals {
  const ffi = inner.ffi as Partial<ContextInternals["ffi"]> | undefined;
  const module = inner.module as Partial<ContextInternals["module"]> | undefined;
  return typeof inner.ctx?.value === "number" && typeof inner.rt?.value === "number"
    && typeof ffi?.QTS_IsJobPending === "function"
    && typeof ffi?.QTS_NewFloat64 === "function" && typeof ffi.QTS_Call === "function"
    && typeof ffi.QTS_ResolveException === "function" && typeof ffi.QTS_FreeValuePointer === "function"
    && typeof ffi.QTS_bjson_encode === "function" && typeof ffi.QTS_GetArrayBuffer === "function"
    && typeof ffi.QTS_GetArrayBufferLength === "function"
    && typeof module?._malloc === "function" && typeof module._free === "function" && module.HEAPU8 instanceof Uint8Array
    && typeof inner.memory?.heapValueHandle === "function";
}

import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten";

/** The answer of a direct call: the function's result as text, or a handle to what it threw. */
export type DirectAnswer = { text: string; error?: undefined } | { text?: undefined; error: QuickJSHandle };

/**
 * DirectCalls calls functions of one QuickJS context with number arguments
 * and reads their answer as text, straight through quickjs-emscripten's C
 * functions: no handle objects for the arguments or the answer. A tick of a
 * small script is a few microseconds of interpreter work, and the public
 * `callFunction` with its handles costs about as much again, so the calls
 * made on every tick go this way.
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
    QTS_GetString(ctx: number, value: number): number;
    QTS_FreeCString(ctx: number, text: number): void;
    QTS_FreeValuePointer(ctx: number, value: number): void;
  };
  module: { _malloc(bytes: number): number; _free(pointer: number): void; UTF8ToString(pointer: number): string };
  memory: { heapValueHandle(pointer: number): QuickJSHandle };
}

const MAX_ARGS = 4;

/**
 * Creates the direct calls of a context whose module memory is `heap32`.
 * When this quickjs-emscripten build does not have the expected shape, the
 * calls go through the public API instead (same answers, slower).
 */
export function createDirectCalls(context: QuickJSContext, heap32: Int32Array): DirectCalls {
  const inner = context as unknown as Partial<ContextInternals>;
  if (!hasInternals(inner)) return publicCalls(context);
  const { ffi, module, memory } = inner;
  const ctx = inner.ctx.value;
  const undefinedValue = context.undefined.value;
  const argv = module._malloc(MAX_ARGS * 4);
  const args = new Array<number>(MAX_ARGS).fill(0);
  const rt = inner.rt.value;
  const answer = (result: number): DirectAnswer => {
    const error = ffi.QTS_ResolveException(ctx, result);
    if (error) {
      ffi.QTS_FreeValuePointer(ctx, result);
      return { error: memory.heapValueHandle(error) };
    }
    const chars = ffi.QTS_GetString(ctx, result);
    const text = module.UTF8ToString(chars);
    ffi.QTS_FreeCString(ctx, chars);
    ffi.QTS_FreeValuePointer(ctx, result);
    return { text };
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
      return answer(result);
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
        return answer(result);
      };
    },
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
    && typeof ffi.QTS_ResolveException === "function" && typeof ffi.QTS_GetString === "function"
    && typeof ffi.QTS_FreeCString === "function" && typeof ffi.QTS_FreeValuePointer === "function"
    && typeof module?._malloc === "function" && typeof module._free === "function" && typeof module.UTF8ToString === "function"
    && typeof inner.memory?.heapValueHandle === "function";
}

function publicCalls(context: QuickJSContext): DirectCalls {
  return {
    call(fn, ...numbers) {
      const handles = numbers.map((n) => context.newNumber(n));
      const result = context.callFunction(fn, context.undefined, handles);
      for (const h of handles) h.dispose();
      if (result.error) return { error: result.error };
      const text = context.getString(result.value);
      result.value.dispose();
      return { text };
    },
    bind2(fn) {
      return (a, b) => this.call(fn, a, b);
    },
    hasPendingJob: () => context.runtime.hasPendingJob(),
    dispose() {},
  };
}

import type { QuickJSContext } from "quickjs-emscripten";
import type { EngineCell } from "./engine-cell.js";
import { QUICKJS_COUNTER_RESET } from "./fuel-meter.js";

/** How far into QuickJS's JSContext struct the probe looks, in bytes. */
const SCAN_BYTES = 1024;

/** The address of a context's JSContext struct in the module's memory. */
export function contextPointer(context: QuickJSContext): number {
  const pointer = (context as unknown as { ctx?: { value?: unknown } }).ctx?.value;
  if (typeof pointer !== "number") throw new Error("quickjs-emscripten no longer exposes the context pointer: the fuel meter cannot work");
  return pointer;
}

/**
 * Finds the byte offset of `interrupt_counter` inside QuickJS's JSContext by
 * running loops of known length and looking for the one word that moves by
 * exactly their difference, then checks it by writing a budget and watching
 * an endless loop stop. Throws (loudly) if the build's layout does not fit,
 * since metering would then be wrong.
 */
export function probeCounterOffset(cell: EngineCell): number {
  const runtime = cell.module.newRuntime();
  try {
    let interrupts = 0;
    let stop = false;
    runtime.setInterruptHandler(() => { interrupts += 1; return stop; });
    const context = runtime.newContext();
    try {
      const base = contextPointer(context) >> 2;
      const words = SCAN_BYTES >> 2;
      const snapshot = () => Array.from(cell.heap32.subarray(base, base + words));
      const run = (code: string) => {
        const result = context.evalCode(code);
        result.error?.dispose();
        if (result.error) throw new Error("the fuel probe's own code failed");
        result.value.dispose();
      };
      run("0"); // the first poll resets the counter: start from a known state
      const s0 = snapshot();
      run("for (let i = 0; i < 100; i++) {}");
      const s1 = snapshot();
      run("for (let i = 0; i < 200; i++) {}");
      const s2 = snapshot();
      run("for (let i = 0; i < 300; i++) {}");
      const s3 = snapshot();
      const candidates: number[] = [];
      for (let i = 0; i < words; i++) {
        const a = s0[i]! - s1[i]!;
        const b = s1[i]! - s2[i]!;
        const c = s2[i]! - s3[i]!;
        if (a > 100 && b - a > 100 && c - b === b - a && s3[i]! > 0 && s3[i]! <= QUICKJS_COUNTER_RESET) candidates.push(i * 4);
      }
      if (candidates.length !== 1) {
        throw new Error(`fuel probe: expected one interrupt counter in QuickJS's JSContext, found ${candidates.length}; this QuickJS build is not supported`);
      }
      const offset = candidates[0]!;
      // Check: a budget of 500 stops an endless loop, after exactly 500 polls.
      cell.heap32[(contextPointer(context) + offset) >> 2] = 500;
      interrupts = 0;
      stop = true;
      const endless = context.evalCode("for (;;) {}");
      const stopped = endless.error !== undefined && interrupts === 1
        && cell.heap32[(contextPointer(context) + offset) >> 2] === QUICKJS_COUNTER_RESET;
      endless.error?.dispose();
      if (!endless.error) endless.value.dispose();
      if (!stopped) throw new Error(`fuel probe: the word at offset ${offset} did not behave as QuickJS's interrupt counter`);
      return offset;
    } finally {
      context.dispose();
    }
  } finally {
    runtime.dispose();
  }
}

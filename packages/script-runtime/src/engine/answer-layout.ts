import type { EngineCell } from "./engine-cell.js";
import { readCanonicalState } from "../state/binary-state.js";

/**
 * The tag words of the answers a handler call gives besides a state: a
 * QuickJS value is 8 bytes in memory (NaN-boxed in this 32-bit build), its
 * tag in the high word, so the host can tell "nothing ran" (undefined) and
 * "a timer is due" (a symbol) from a state without a call into the engine.
 */
export interface ValueTags {
  undefined: number;
  symbol: number;
}

/**
 * Reads the tag words of undefined and of a symbol, and checks that they
 * differ from those of every kind of state (objects, arrays, strings,
 * numbers, booleans, null). Throws (loudly) when this build does not keep
 * values that way, since answers would then be misread.
 */
export function probeValueTags(cell: EngineCell): ValueTags {
  const context = cell.module.newContext();
  try {
    const tagOf = (code: string): number => {
      const handle = context.unwrapResult(context.evalCode(code));
      try {
        const pointer = handle.value as unknown;
        if (typeof pointer !== "number") throw new Error("quickjs-emscripten no longer exposes value pointers: handler answers cannot be read");
        return cell.heap32[(pointer >> 2) + 1]!;
      } finally {
        handle.dispose();
      }
    };
    const tags = { undefined: tagOf("undefined"), symbol: tagOf("Symbol('probe')") };
    const stateTags = ["({})", "[]", "'text'", "0", "1.5", "-1e300", "true", "null"].map(tagOf);
    if (tags.undefined === tags.symbol || stateTags.some((t) => t === tags.undefined || t === tags.symbol)) {
      throw new Error("value probe: undefined and symbols are not told apart from states by their tag in this QuickJS build; it is not supported");
    }
    return tags;
  } finally {
    context.dispose();
  }
}

/**
 * Checks that the binary JSON this build writes reads back as the expected
 * canonical JSON (keys of every kind, shared objects, wide strings). Throws
 * (loudly) when it does not, since every state would then be misread.
 */
export function probeBinaryState(cell: EngineCell): void {
  const context = cell.module.newContext();
  try {
    const source = "const shared = [1, -2, 2147483647, -2147483648, 1.5, -0, 1e21]; ({ zeta: shared, alpha: { 10: true, 9: false, '': null }, name: 'ж\u{1F600}', length: shared, ['__proto__']: 'x' })";
    const numbers = "[1,-2,2147483647,-2147483648,1.5,0,1e+21]";
    const expected = `{"__proto__":"x","alpha":{"":null,"10":true,"9":false},"length":${numbers},"name":"\u0436\u{1F600}","zeta":${numbers}}`;
    const value = context.unwrapResult(context.evalCode(source));
    const encoded = context.encodeBinaryJSON(value);
    value.dispose();
    const bytes = new Uint8Array(context.getArrayBuffer(encoded).value);
    encoded.dispose();
    const reading = readCanonicalState(bytes, 0, bytes.length, 64, 1 << 20);
    if (reading.json !== expected) {
      throw new Error(`state probe: this QuickJS build's binary JSON reads as ${reading.json ?? reading.problem ?? "too large"}; it is not supported`);
    }
  } finally {
    context.dispose();
  }
}

import fc from "fast-check";
import { newQuickJSWASMModuleFromVariant, RELEASE_SYNC } from "quickjs-emscripten";
import type { QuickJSContext } from "quickjs-emscripten";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCanonicalState } from "../src/state/binary-state.js";

/** Canonical JSON written the plain way, in V8: keys sorted by code units. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

let context: QuickJSContext;

beforeAll(async () => {
  context = (await newQuickJSWASMModuleFromVariant(RELEASE_SYNC)).newContext();
});

afterAll(() => {
  context.dispose();
});

/** The binary JSON QuickJS writes for the value `code` evaluates to. */
function binaryOf(code: string): Uint8Array {
  const value = context.unwrapResult(context.evalCode(code));
  const encoded = context.encodeBinaryJSON(value);
  value.dispose();
  const bytes = new Uint8Array(context.getArrayBuffer(encoded).value);
  encoded.dispose();
  return bytes;
}

function read(code: string, maxDepth = 64, maxChars = 1 << 20) {
  const bytes = binaryOf(code);
  return readCanonicalState(bytes, 0, bytes.length, maxDepth, maxChars);
}

describe("readCanonicalState", () => {
  it("should read any JSON value QuickJS writes as the canonical JSON of that value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = JSON.stringify(value);
        expect(read(`JSON.parse(${JSON.stringify(json)})`)).toEqual({ json: canonical(JSON.parse(json)) });
      }),
      { numRuns: 300 },
    );
  });

  it("should write every number and string exactly as QuickJS's own JSON.stringify does", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string({ unit: "binary" })), { maxLength: 8 }), (values) => {
        const code = `[${values.map((v) => (typeof v === "number" ? (Object.is(v, -0) ? "-0" : String(v)) : JSON.stringify(v))).join(",")}]`;
        const handle = context.unwrapResult(context.evalCode(`JSON.stringify(${code})`));
        const quickjs = context.getString(handle);
        handle.dispose();
        expect(read(code)).toEqual({ json: quickjs });
      }),
      { numRuns: 300 },
    );
  });

  it("should read keys of every kind: integer keys, built-in names, wide and empty ones", () => {
    expect(read("({ b: 1, 10: 2, 9: 3, '': 4, length: 5, constructor: 6, ['__proto__']: 7, 'ж': 8, '\\u{1F600}': 9 })")).toEqual({
      json: canonical({ b: 1, 10: 2, 9: 3, "": 4, length: 5, constructor: 6, ["__proto__"]: 7, ж: 8, "\u{1F600}": 9 }),
    });
  });

  it("should write numbers as JavaScript does, -0 as 0", () => {
    expect(read("[0, -0, 1.5, -2147483648, 2147483647, 2147483648, 1e21, 5e-324, 0.1 + 0.2]")).toEqual({
      json: "[0,0,1.5,-2147483648,2147483647,2147483648,1e+21,5e-324,0.30000000000000004]",
    });
  });

  it("should keep lone surrogates and control characters escaped as JSON.stringify does", () => {
    expect(read("['\\ud800', 'a\\udc00b', '\\u0000\\n\\u001f\"\\\\']")).toEqual({
      json: JSON.stringify(["\ud800", "a\udc00b", "\u0000\n\u001f\"\\"]),
    });
  });

  it("should write an object shared in two places twice, and refuse a cycle", () => {
    expect(read("(() => { const a = { z: [1], y: 2 }; return { p: a, q: [a, a] }; })()")).toEqual({
      json: '{"p":{"y":2,"z":[1]},"q":[{"y":2,"z":[1]},{"y":2,"z":[1]}]}',
    });
    expect(read("(() => { const a = { b: {} }; a.b.a = a; return a; })()")).toEqual({ problem: "a cycle" });
  });

  it("should name what is not JSON data", () => {
    expect(read("({ u: undefined })")).toEqual({ problem: "undefined" });
    expect(read("[1, , 3]")).toEqual({ problem: "undefined" });
    expect(read("({ x: NaN })")).toEqual({ problem: "NaN" });
    expect(read("({ x: -Infinity })")).toEqual({ problem: "-Infinity" });
    expect(read("({ d: new Date(0) })")).toEqual({ problem: "not JSON data" });
    expect(read("({ n: new Number(1) })")).toEqual({ problem: "not JSON data" });
    expect(read("({ b: new Uint8Array(2) })")).toEqual({ problem: "not JSON data" });
    expect(read("({ big: 1n })")).toEqual({ problem: "not JSON data" });
  });

  it("should refuse nesting deeper than the limit", () => {
    expect(read("[[[1]]]", 3)).toEqual({ json: "[[[1]]]" });
    expect(read("[[[[1]]]]", 3)).toEqual({ problem: "nested deeper than 3 levels" });
  });

  it("should stop at the size limit, even when shared objects would multiply the text", () => {
    expect(read("({ s: 'x'.repeat(100) })", 64, 108)).toEqual({ json: `{"s":"${"x".repeat(100)}"}` });
    expect(read("({ s: 'x'.repeat(100) })", 64, 107)).toEqual({ tooLarge: true });
    // 2^40 copies of one array if expanded: the reader stops once the text passes the limit.
    const bomb = "(() => { let a = [1]; for (let i = 0; i < 40; i++) a = [a, a]; return a; })()";
    expect(read(bomb, 64, 1 << 16)).toEqual({ tooLarge: true });
  });

  it("should refuse bytes that end early or come from another version", () => {
    const bytes = binaryOf("({ a: [1, 2, 3] })");
    expect(readCanonicalState(bytes, 0, bytes.length - 1, 64, 1 << 20)).toEqual({ problem: "binary JSON ended early" });
    const other = bytes.slice();
    other[0] = 99;
    expect(readCanonicalState(other, 0, other.length, 64, 1 << 20)).toEqual({ problem: "binary JSON of an unknown version" });
  });

  it("should read bytes in the middle of a larger buffer", () => {
    const bytes = binaryOf("({ k: 'v' })");
    const padded = new Uint8Array(bytes.length + 10);
    padded.set(bytes, 5);
    expect(readCanonicalState(padded, 5, 5 + bytes.length, 64, 1 << 20)).toEqual({ json: '{"k":"v"}' });
  });
});

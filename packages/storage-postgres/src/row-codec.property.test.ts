import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeRow, encodeRow } from "./row-codec.js";

describe("encodeRow", () => {
  it("should give back any JSON row, strings with NUL and lone surrogates and keys starting with NUL included", () => {
    fc.assert(fc.property(row(), (value) => {
      expect(decodeRow(encodeRow(value))).toEqual(value);
    }), { numRuns: 1_000 });
  });

  it("should write text PostgreSQL's text type takes: no NUL character, no lone surrogate", () => {
    fc.assert(fc.property(row(), (value) => {
      const text = encodeRow(value);
      expect(text.includes("\u0000")).toBe(false);
      // A lone surrogate would not survive UTF-8 (it becomes U+FFFD).
      expect(Buffer.from(text, "utf8").toString("utf8")).toBe(text);
    }), { numRuns: 1_000 });
  });

  it("should give back typed arrays with their type and values, at any offset of their buffer", () => {
    const backing = new Int32Array([9, -1, 2 ** 31 - 1, -(2 ** 31), 0]);
    const segment = { kind: "u", ids: "a\u0000b", bounds: backing.subarray(1, 4), floats: new Float64Array([0.5, -Infinity]), bytes: new Uint8Array([0, 255]) };
    const back = decodeRow<typeof segment>(encodeRow(segment));
    expect(back).toEqual(segment);
    expect(back.bounds).toBeInstanceOf(Int32Array);
    expect([...back.bounds]).toEqual([-1, 2 ** 31 - 1, -(2 ** 31)]);
    expect(back.floats).toBeInstanceOf(Float64Array);
    expect(back.bytes).toBeInstanceOf(Uint8Array);
  });

  it("should tell a row's own object that looks like a tag from a typed array", () => {
    const value = { "\u0000Int32Array": "AQAAAA==", nested: [{ "\u0000": 1, "\u0000\u0000x": 2 }] };
    expect(decodeRow(encodeRow(value))).toEqual(value);
  });

  it("should refuse a DataView, which is no typed array", () => {
    expect(() => encodeRow({ view: new DataView(new ArrayBuffer(4)) })).toThrow(TypeError);
  });
});

// ---- Arbitraries ----

/** Strings of any UTF-16 code units: NUL and lone surrogates are common. */
const anyString = () => fc.string({ unit: fc.oneof(fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), fc.constantFrom("\u0000", "\ud800", "a")) });

function row(): fc.Arbitrary<unknown> {
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small" },
      fc.constantFrom(null, true, false),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)),
      anyString(),
      fc.array(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { maxLength: 3 }).map((ns) => new Int32Array(ns)),
      fc.array(tie("value"), { maxLength: 4 }),
      fc.dictionary(fc.oneof(anyString(), anyString().map((k) => `\u0000${k}`)), tie("value"), { maxKeys: 4 }),
    ),
  }));
  return value;
}

import { compareKeys, type IndexKey } from "@playfield/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeKey, encodeKey, encodePrefixEnd } from "./key-encoding.js";

/** How PostgreSQL orders bytea: byte by byte, a prefix first. */
const compareBytes = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b);

describe("encodeKey", () => {
  it("should order the bytes of any two keys as compareKeys orders the keys", () => {
    fc.assert(fc.property(key(), key(), (a, b) => {
      expect(Math.sign(compareBytes(encodeKey(a), encodeKey(b)))).toBe(Math.sign(compareKeys(a, b)));
    }), { numRuns: 20_000 });
  });

  it("should order keys sharing a prefix as compareKeys does (ties, extensions and near values are common here)", () => {
    fc.assert(fc.property(key(), key(), key(), (prefix, a, b) => {
      const x = [...prefix, ...a], y = [...prefix, ...b];
      expect(Math.sign(compareBytes(encodeKey(x), encodeKey(y)))).toBe(Math.sign(compareKeys(x, y)));
    }), { numRuns: 5_000 });
  });

  it("should decode back to the key (with -0 read as 0, which compareKeys holds equal)", () => {
    fc.assert(fc.property(key(), (k) => {
      expect(decodeKey(encodeKey(k))).toEqual(k.map((e) => (e === 0 ? 0 : e)));
    }), { numRuns: 2_000 });
  });
});

describe("encodePrefixEnd", () => {
  it("should bound exactly the keys that start with the prefix: encodeKey(p) <= key < encodePrefixEnd(p)", () => {
    fc.assert(fc.property(key(), key(), (prefix, k) => {
      const bytes = encodeKey(k);
      const startsWith = k.length >= prefix.length && compareKeys(k.slice(0, prefix.length), prefix) === 0;
      const inside = compareBytes(encodeKey(prefix), bytes) <= 0 && compareBytes(bytes, encodePrefixEnd(prefix)) < 0;
      expect(inside).toBe(startsWith);
    }), { numRuns: 5_000 });
  });

  it("should hold for keys made by extending the prefix", () => {
    fc.assert(fc.property(key(), key(), (prefix, rest) => {
      const bytes = encodeKey([...prefix, ...rest]);
      expect(compareBytes(encodeKey(prefix), bytes)).toBeLessThanOrEqual(0);
      expect(compareBytes(bytes, encodePrefixEnd(prefix))).toBeLessThan(0);
    }), { numRuns: 2_000 });
  });
});

// ---- Arbitraries ----

/** Any UTF-16 code unit, lone surrogates and NUL included, or one of a few, so that ties and prefixes are common. */
const unit = () => fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
  fc.constantFrom("a", "b", "\u0000", "\u007e", "\u007f", "\u0080", "\uffff", "\ud800", "\udc00"),
);

function element(): fc.Arbitrary<string | number> {
  return fc.oneof(
    fc.string({ unit: unit(), maxLength: 6 }),
    fc.double({ noNaN: true }),
    fc.integer({ min: -3, max: 3 }),
    fc.constantFrom(0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, Infinity, -Infinity, Number.MAX_VALUE, 2 ** 53),
  );
}

function key(): fc.Arbitrary<IndexKey> {
  return fc.array(element(), { maxLength: 4 });
}

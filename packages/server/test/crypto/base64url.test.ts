import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64url, encodeBase64url } from "../../src/crypto/base64url.js";

describe("encodeBase64url", () => {
  it("should agree with Buffer's base64url for any bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
      expect(encodeBase64url(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
    }));
  });

  it("should agree with Buffer's base64url past one chunk of characters, and after a prefix", () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 6000, maxLength: 20_000 }), fc.string(), (bytes, prefix) => {
      expect(encodeBase64url(bytes, prefix)).toBe(prefix + Buffer.from(bytes).toString("base64url"));
    }), { numRuns: 20 });
  });

  it("should encode RFC 4648's test vectors without padding", () => {
    const cases: [string, string][] = [["", ""], ["f", "Zg"], ["fo", "Zm8"], ["foo", "Zm9v"], ["foob", "Zm9vYg"], ["fooba", "Zm9vYmE"], ["foobar", "Zm9vYmFy"]];
    for (const [text, encoded] of cases) expect(encodeBase64url(new TextEncoder().encode(text))).toBe(encoded);
  });
});

describe("decodeBase64url", () => {
  it("should give back the bytes of any encoding", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
      expect(decodeBase64url(encodeBase64url(bytes))).toEqual(bytes);
    }));
  });

  it("should refuse characters outside the alphabet, padding and impossible lengths", () => {
    expect(decodeBase64url("Zm9v+A")).toBeUndefined();
    expect(decodeBase64url("Zm9v/A")).toBeUndefined();
    expect(decodeBase64url("Zg==")).toBeUndefined();
    expect(decodeBase64url("Zm9vY")).toBeUndefined();
    expect(decodeBase64url("Zm9vé")).toBeUndefined();
  });

  it("should refuse texts with non-zero unused bits, so each byte string has one text", () => {
    expect(decodeBase64url("Zg")).toEqual(new Uint8Array([0x66]));
    expect(decodeBase64url("Zh")).toBeUndefined();
    expect(decodeBase64url("Zm9")).toBeUndefined();
  });

  it("should return undefined, never throw, for any string", () => {
    fc.assert(fc.property(nearBase64url(), (text) => {
      const bytes = decodeBase64url(text);
      if (bytes !== undefined) expect(encodeBase64url(bytes)).toBe(text);
    }));
  });
});

/** Strings mostly of base64url characters, with some that are not (padding, other alphabets, non-ASCII, a lone surrogate). */
function nearBase64url(): fc.Arbitrary<string> {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const unit = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...alphabet) }, { weight: 1, arbitrary: fc.constantFrom("=", "+", "/", ".", " ", "é", "😀", "\uD800", "\0") });
  return fc.string({ unit, maxLength: 40 });
}

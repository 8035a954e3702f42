import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeBase64url } from "../../src/crypto/base64url.js";
import { hashToken, randomId, randomToken } from "../../src/crypto/random-token.js";

describe("randomToken", () => {
  it("should encode 32 random bytes by default", () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(decodeBase64url(token)).toHaveLength(32);
  });

  it("should encode the number of bytes asked for", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 200 }), (bytes) => {
      expect(decodeBase64url(randomToken(bytes))).toHaveLength(bytes);
    }));
  });

  it("should not repeat itself", () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => randomToken(16)));
    expect(tokens.size).toBe(1000);
  });

  it("should hand out no byte twice across the batches it draws ahead, whatever the sizes asked", () => {
    // Sizes that straddle the 4 KiB batch and one larger than it: 32-byte tokens must all differ.
    const sizes = [4000, 32, 100, 5000, 32, 12];
    const tokens = Array.from({ length: 600 }, (_, i) => randomToken(sizes[i % sizes.length]!));
    expect(tokens.map((t) => decodeBase64url(t)!.length)).toEqual(tokens.map((_, i) => sizes[i % sizes.length]));
    const short = tokens.filter((_, i) => sizes[i % sizes.length] === 32);
    expect(new Set(short).size).toBe(short.length);
  });

  it("should refuse a length that is not a positive whole number", () => {
    expect(() => randomToken(0)).toThrow(RangeError);
    expect(() => randomToken(1.5)).toThrow(RangeError);
  });
});

describe("randomId", () => {
  it("should be the prefix, an underscore and 12 random bytes, never repeated", () => {
    const ids = Array.from({ length: 1000 }, () => randomId("txn"));
    for (const id of ids) {
      expect(id).toMatch(/^txn_[A-Za-z0-9_-]{16}$/);
      expect(decodeBase64url(id.slice(4))).toHaveLength(12);
    }
    expect(new Set(ids).size).toBe(1000);
  });
});

describe("hashToken", () => {
  it("should be the SHA-256 hex of the token's UTF-8 text", () => {
    fc.assert(fc.property(fc.string(), (token) => {
      expect(hashToken(token)).toBe(createHash("sha256").update(token, "utf8").digest("hex"));
    }));
  });

  it("should hash the empty string to SHA-256's known empty digest", () => {
    expect(hashToken("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});

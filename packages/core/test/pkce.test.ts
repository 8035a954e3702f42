import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isValidChallenge, isValidVerifier, s256Challenge, verifyS256 } from "../src/domain/pkce.js";

// RFC 7636 Appendix B.
const RFC_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const RFC_CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

describe("s256Challenge", () => {
  it("should compute RFC 7636 Appendix B's challenge", () => {
    expect(s256Challenge(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
  });

  it("should agree with node:crypto's SHA-256 in base64url for any verifier", () => {
    fc.assert(fc.property(verifier(), (v) => {
      expect(s256Challenge(v)).toBe(createHash("sha256").update(v, "ascii").digest("base64url"));
    }));
  });

  it("should give a valid challenge for any verifier", () => {
    fc.assert(fc.property(verifier(), (v) => {
      expect(isValidChallenge(s256Challenge(v))).toBe(true);
    }));
  });
});

describe("isValidVerifier", () => {
  it("should accept 43 to 128 unreserved characters", () => {
    fc.assert(fc.property(verifier(), (v) => {
      expect(isValidVerifier(v)).toBe(true);
    }));
  });

  it("should reject 42 and 129 characters", () => {
    expect(isValidVerifier("a".repeat(42))).toBe(false);
    expect(isValidVerifier("a".repeat(129))).toBe(false);
    expect(isValidVerifier("a".repeat(43))).toBe(true);
    expect(isValidVerifier("a".repeat(128))).toBe(true);
  });

  it("should reject any character outside A-Z a-z 0-9 - . _ ~", () => {
    fc.assert(fc.property(verifier(), fc.nat(), outsideChar(/[A-Za-z0-9\-._~]/), (v, at, bad) => {
      const i = at % v.length;
      expect(isValidVerifier(v.slice(0, i) + bad + v.slice(i + 1))).toBe(false);
    }));
  });
});

describe("isValidChallenge", () => {
  it("should accept RFC 7636 Appendix B's challenge", () => {
    expect(isValidChallenge(RFC_CHALLENGE)).toBe(true);
  });

  it("should reject other lengths and padding", () => {
    expect(isValidChallenge(RFC_CHALLENGE.slice(1))).toBe(false);
    expect(isValidChallenge(RFC_CHALLENGE + "A")).toBe(false);
    expect(isValidChallenge(RFC_CHALLENGE + "=")).toBe(false);
  });

  it("should reject any character outside the base64url alphabet", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 42 }), outsideChar(/[A-Za-z0-9\-_]/), (i, bad) => {
      expect(isValidChallenge(RFC_CHALLENGE.slice(0, i) + bad + RFC_CHALLENGE.slice(i + 1))).toBe(false);
    }));
  });
});

describe("verifyS256", () => {
  it("should accept RFC 7636 Appendix B's pair", () => {
    expect(verifyS256(RFC_VERIFIER, RFC_CHALLENGE)).toBe(true);
  });

  it("should accept any verifier with its own challenge", () => {
    fc.assert(fc.property(verifier(), (v) => {
      expect(verifyS256(v, s256Challenge(v))).toBe(true);
    }));
  });

  it("should reject a verifier with another verifier's challenge", () => {
    fc.assert(fc.property(verifier(), verifier(), (a, b) => {
      fc.pre(a !== b);
      expect(verifyS256(a, s256Challenge(b))).toBe(false);
    }));
  });

  it("should reject a challenge changed in one character", () => {
    fc.assert(fc.property(verifier(), fc.integer({ min: 0, max: 42 }), fc.constantFrom(..."Aa0-_"), (v, i, c) => {
      const good = s256Challenge(v);
      fc.pre(good[i] !== c);
      expect(verifyS256(v, good.slice(0, i) + c + good.slice(i + 1))).toBe(false);
    }));
  });

  it("should reject a malformed verifier even when the challenge is its hash", () => {
    const short = RFC_VERIFIER.slice(0, 42);
    expect(verifyS256(short, s256Challenge(short))).toBe(false);
    const spaced = RFC_VERIFIER.slice(0, 42) + " ";
    expect(verifyS256(spaced, s256Challenge(spaced))).toBe(false);
  });

  it("should treat the plain verifier as a challenge as a mismatch", () => {
    expect(verifyS256(RFC_VERIFIER, RFC_VERIFIER)).toBe(false);
  });
});

/** Verifiers of 43 to 128 unreserved characters. */
function verifier(): fc.Arbitrary<string> {
  const unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
  return fc.string({ unit: fc.constantFrom(...unreserved), minLength: 43, maxLength: 128 });
}

/** One character (a code point) that `allowed` does not match. */
function outsideChar(allowed: RegExp): fc.Arbitrary<string> {
  return fc.string({ unit: "grapheme-composite", minLength: 1, maxLength: 1 }).filter((c) => !allowed.test(c));
}

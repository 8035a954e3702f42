import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bearerToken } from "../../src/rpc/authorize.js";

/** The header's grammar as written before the plain header got a faster test: the reference. */
function reference(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new Error("refused");
  return match[1]!;
}

const outcome = (read: (header: string | null) => string | null, header: string | null) => {
  try {
    return { token: read(header) };
  } catch {
    return { refused: true };
  }
};

describe("bearerToken", () => {
  it("should read the token of the plain header", () => {
    expect(bearerToken("Bearer abc.def-ghi_jkl")).toBe("abc.def-ghi_jkl");
    expect(bearerToken(null)).toBeNull();
    expect(bearerToken("")).toBeNull();
  });

  it("should read other spellings as the grammar allows", () => {
    expect(bearerToken("bearer   tok  ")).toBe("tok");
    expect(bearerToken("BEARER tok\t")).toBe("tok");
  });

  it("should refuse what is not one bearer token", () => {
    for (const header of ["Bearer", "Bearer ", "Bearer a b", "Basic abc", "Bearertok", "Bearer\ttok", "Bearer to\u00a0k"]) {
      expect(() => bearerToken(header), header).toThrow("expected `Bearer <token>`");
    }
  });

  it("should answer as the grammar does for any header", () => {
    const char = fc.constantFrom(" ", "\t", "\n", "\u00a0", "\u2028", "\ufeff", "B", "b", "e", "a", "r", "R", "x", ".", "-", "~", "\u00e9", "\u007f");
    const header = fc.oneof(
      fc.array(char, { maxLength: 14 }).map((chars) => chars.join("")),
      fc.tuple(fc.constantFrom("Bearer ", "bearer ", "Bearer  ", "BEARER\t"), fc.array(char, { maxLength: 10 })).map(([head, rest]) => head + rest.join("")),
      fc.string({ unit: "binary", maxLength: 20 }).map((rest) => `Bearer ${rest}`),
    );
    fc.assert(fc.property(header, (h) => {
      expect(outcome(bearerToken, h)).toEqual(outcome(reference, h));
    }), { numRuns: 2000 });
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizePublicUrl } from "../src/domain/public-url.js";

describe("normalizePublicUrl", () => {
  it("should keep an http(s) origin and path without the trailing slash", () => {
    expect(normalizePublicUrl("https://play.example/")).toBe("https://play.example");
    expect(normalizePublicUrl("http://127.0.0.1:8080/games/")).toBe("http://127.0.0.1:8080/games");
  });

  it("should refuse other schemes, queries, fragments and credentials", () => {
    for (const bad of ["ftp://play.example", "play.example", "https://play.example/?a=1", "https://play.example/#x", "https://u:p@play.example", "https://u@play.example", ""]) {
      expect(normalizePublicUrl(bad)).toBeNull();
    }
  });

  it("should give a URL it keeps as it is (normalising twice changes nothing)", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (text) => {
        const once = normalizePublicUrl(text);
        if (once !== null) expect(normalizePublicUrl(once)).toBe(once);
      }),
    );
  });
});

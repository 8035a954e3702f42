import { describe, expect, it } from "vitest";
import { contentUrlFor, COOK_TARGETS_BY_PLATFORM } from "../../src/domain/cook-target.js";
import { missingEngineVersion } from "../../src/domain/engine-version.js";
import { PROTOTYPE_NAMES } from "../support/prototype-names.js";

/*
 * SessionService/Join with `platform: "constructor"` answered 500: the
 * platform was looked up in a plain object, an inherited function came back
 * and `text.trim` was called on it. A platform named like a prototype
 * property is an unknown platform: no minimum, the web content.
 */
describe("a platform named like a prototype property", () => {
  const engineMin = { web: "2.0", windows: "1.4" };
  const contentUrls = { web: "W", desktop: "D" };

  for (const platform of PROTOTYPE_NAMES) {
    it(`should have no engine minimum and get the web content for ${JSON.stringify(platform)}`, () => {
      expect(missingEngineVersion(engineMin, platform, "")).toBeNull();
      expect(missingEngineVersion(engineMin, platform, "1.0")).toBeNull();
      expect(contentUrlFor(contentUrls, platform)).toBe("W");
      expect(COOK_TARGETS_BY_PLATFORM.get(platform)).toBeUndefined();
    });
  }

  it("should still find a minimum stored under a prototype name as the version's own entry", () => {
    const own = JSON.parse('{"__proto__":"3.0","constructor":"2.0"}') as Record<string, string>;
    expect(missingEngineVersion(own, "__proto__", "1.0")).toBe("3.0");
    expect(missingEngineVersion(own, "constructor", "2.0")).toBeNull();
    expect(contentUrlFor(own, "constructor")).toBe("2.0");
  });
});

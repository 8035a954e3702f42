import { describe, expect, it } from "vitest";
import { avatarProblem } from "../../src/domain/avatar-rules.js";
import { canMovePayout, type PayoutStatus } from "../../src/domain/payout-rules.js";
import { budgetReportProblem, placeVersionProblem } from "../../src/domain/place-version-rules.js";
import { PROTOTYPE_NAMES } from "../support/prototype-names.js";

/*
 * The audit after the `platform: "constructor"` defect: every other table of
 * names in the core that a caller's string reaches answers a prototype
 * property name as an unknown name.
 */
describe("tables of names looked up with a prototype property name", () => {
  const report = JSON.stringify({ targets: { web: { downloadBytes: 1, memoryBytes: 1, triangles: 1, drawCalls: 1 } } });

  for (const name of PROTOTYPE_NAMES) {
    it(`should treat ${JSON.stringify(name)} as an unknown name`, () => {
      // A cook target: refused by name, and a budget report is not read through the prototype.
      expect(placeVersionProblem(JSON.parse(`{${JSON.stringify(name)}:"https://cdn.example/x"}`) as Record<string, string>, {}))
        .toBe(`contentUrls.${name}: not a cook target (one of web, desktop, mobile_high, mobile_low)`);
      expect(placeVersionProblem({ web: "https://cdn.example/x" }, JSON.parse(`{${JSON.stringify(name)}:"1.0"}`) as Record<string, string>))
        .toBe(`engineMin.${name}: not a platform (one of web, macos, windows, linux, ios, android)`);
      expect(budgetReportProblem(report, ["web", name])).toBeNull();
      expect(budgetReportProblem(JSON.stringify({ targets: {} }), [name])).toBeNull();
      // A proportion: not a range.
      const proportions = JSON.parse(`{${JSON.stringify(name)}:5}`) as Record<string, number>;
      expect(avatarProblem({ body: "", base: "", tints: {}, wornItemIds: [], emotes: {}, proportions }, new Map())).toBeNull();
      // A payout status: no moves from or to it.
      expect(canMovePayout(name as PayoutStatus, "paid")).toBe(false);
      expect(canMovePayout("requested", name as PayoutStatus)).toBe(false);
    });
  }
});

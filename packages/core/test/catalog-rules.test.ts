import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  budgetReportProblem, contentHashOf, matchRank, normalizeText, PLACE_BUDGETS, placeVersionProblem, ratingScore, searchTerms,
} from "../src/index.js";

const report = (targets: Record<string, unknown>) => JSON.stringify({ targets });
const within = { downloadBytes: 1, memoryBytes: 1, triangles: 1, drawCalls: 1 };

describe("ratingScore", () => {
  it("should be 0 with no votes and stay between 0 and the share of up votes", () => {
    expect(ratingScore(0, 0)).toBe(0);
    fc.assert(fc.property(fc.nat(10_000), fc.nat(10_000), (up, down) => {
      const score = ratingScore(up, down);
      expect(score).toBeGreaterThanOrEqual(0);
      if (up + down > 0) expect(score).toBeLessThanOrEqual(up / (up + down) + 1e-12);
    }));
  });

  it("should rise with one more up vote and fall with one more down vote", () => {
    fc.assert(fc.property(fc.nat(5_000), fc.nat(5_000), (up, down) => {
      expect(ratingScore(up + 1, down)).toBeGreaterThan(ratingScore(up, down) - 1e-12);
      expect(ratingScore(up, down + 1)).toBeLessThan(ratingScore(up, down) + 1e-12);
    }));
  });

  it("should rank many votes at a high share above one lone up vote", () => {
    expect(ratingScore(95, 5)).toBeGreaterThan(ratingScore(1, 0));
  });
});

describe("searchTerms and matchRank", () => {
  it("should cut text into distinct lowercase words without accents", () => {
    expect(searchTerms("Café  CAFÉ -- Obby_2!")).toEqual(["cafe", "obby", "2"]);
    expect(normalizeText("  Ünïcode ")).toBe("unicode");
  });

  it("should rank an exact title over a title prefix over other word-prefix matches, and 0 for a miss", () => {
    expect(matchRank("castle", "Castle")).toBe(3);
    expect(matchRank("castle", "Castle Defense")).toBe(2);
    expect(matchRank("def cas", "Castle Defense")).toBe(1);
    expect(matchRank("strat", "Castle", "Strategy")).toBe(1);
    expect(matchRank("dragon", "Castle Defense")).toBe(0);
    expect(matchRank("", "Castle")).toBe(0);
  });

  it("should match every title by any prefix of any of its words", () => {
    fc.assert(fc.property(fc.array(fc.stringMatching(/^[a-z0-9]{1,12}$/), { minLength: 1, maxLength: 6 }), fc.nat(), fc.nat(), (words, pick, cut) => {
      const word = words[pick % words.length]!;
      const prefix = word.slice(0, 1 + (cut % word.length));
      expect(matchRank(prefix, words.join(" "))).toBeGreaterThan(0);
    }));
  });
});

describe("placeVersionProblem", () => {
  it("should take known cook targets with http(s) or content URLs and known platforms with versions", () => {
    expect(placeVersionProblem({ web: "https://cdn.example.com/m.json", mobile_low: `/content/${"a".repeat(64)}` }, { ios: "1.4.0", web: "2" })).toBeNull();
    expect(placeVersionProblem({}, {})).toMatch(/^contentUrls: at least one/);
    expect(placeVersionProblem({ tv: "https://x.example" }, {})).toMatch(/^contentUrls.tv: not a cook target/);
    expect(placeVersionProblem({ web: "data:text/html,hi" }, {})).toMatch(/^contentUrls.web: an http\(s\) URL/);
    expect(placeVersionProblem({ web: "https://x.example" }, { ios: "1.2.3.4" })).toMatch(/^engineMin.ios: a version/);
  });

  it("should read the hash of this server's content URLs only", () => {
    expect(contentHashOf(`/content/${"f".repeat(64)}`)).toBe("f".repeat(64));
    expect(contentHashOf(`https://api.example.com/content/${"f".repeat(64)}`)).toBe("f".repeat(64));
    expect(contentHashOf("https://cdn.example.com/m.json")).toBeNull();
  });
});

describe("budgetReportProblem", () => {
  it("should pass a report within every published budget of the published targets", () => {
    expect(budgetReportProblem(report({ web: PLACE_BUDGETS.web, desktop: within }), ["web", "desktop"])).toBeNull();
  });

  it("should name the target, measure and budget of a report over budget", () => {
    const over = { ...within, drawCalls: PLACE_BUDGETS.mobile_low.drawCalls + 1 };
    expect(budgetReportProblem(report({ mobile_low: over }), ["mobile_low"])).toBe(`budgetReportJson: over budget: mobile_low drawCalls 301 > 300`);
  });

  it("should call malformed a report that is not JSON, has no targets, misses a target or a measure", () => {
    expect(budgetReportProblem("{", ["web"])).toMatch(/malformed: not JSON/);
    expect(budgetReportProblem("[]", ["web"])).toMatch(/malformed: expected an object/);
    expect(budgetReportProblem(report({}), ["web"])).toMatch(/malformed: no report for target web/);
    expect(budgetReportProblem(report({ web: { ...within, triangles: "many" } }), ["web"])).toMatch(/malformed: targets.web.triangles/);
    expect(budgetReportProblem(report({ web: { ...within, memoryBytes: -1 } }), ["web"])).toMatch(/malformed: targets.web.memoryBytes/);
  });

  it("should reject exactly the reports with some measure over its budget", () => {
    const measure = fc.nat(2 * PLACE_BUDGETS.web.triangles);
    fc.assert(fc.property(measure, measure, measure, measure, (downloadBytes, memoryBytes, triangles, drawCalls) => {
      const values = { downloadBytes, memoryBytes, triangles, drawCalls };
      const over = (Object.keys(values) as (keyof typeof values)[]).some((m) => values[m] > PLACE_BUDGETS.web[m]);
      const problem = budgetReportProblem(report({ web: values }), ["web"]);
      expect(problem === null).toBe(!over);
    }));
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonTextDepth, jsonValueDepth } from "../src/json/json-depth.js";

const nested = (depth: number, leaf = "1") => "[".repeat(depth) + leaf + "]".repeat(depth);

describe("jsonTextDepth", () => {
  it("should count levels of arrays and objects, not brackets inside strings", () => {
    expect(jsonTextDepth("1")).toBe(0);
    expect(jsonTextDepth("[]")).toBe(1);
    expect(jsonTextDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonTextDepth('["[[[", "\\"]]]{{{"]')).toBe(1);
    expect(jsonTextDepth('{"\\\\":[]}')).toBe(2);
  });

  it("should measure a million levels without overflowing, and stop early past a limit", () => {
    expect(jsonTextDepth(nested(1_000_000))).toBe(1_000_000);
    expect(jsonTextDepth(nested(1_000_000), 32)).toBe(33);
  });

  it("should agree with the depth of the parsed value", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(jsonTextDepth(JSON.stringify(value))).toBe(jsonValueDepth(value));
      expect(jsonTextDepth(JSON.stringify(value, null, 2))).toBe(jsonValueDepth(value));
    }));
  });
});

describe("jsonValueDepth", () => {
  it("should walk a million levels without overflowing, and stop early past a limit", () => {
    const deep = JSON.parse(nested(1_000_000)) as unknown;
    expect(jsonValueDepth(deep)).toBe(1_000_000);
    expect(jsonValueDepth(deep, 32)).toBe(33);
    expect(jsonValueDepth({ a: [1, { b: {} }] })).toBe(4);
    expect(jsonValueDepth("x")).toBe(0);
  });
});

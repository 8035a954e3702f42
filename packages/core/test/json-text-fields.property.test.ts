import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeTopLevel, mergeTopLevelText } from "../src/domain/json-merge.js";
import { compactJson, topLevelFields } from "../src/json/json-text-fields.js";

const jsonObject = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue(), { maxKeys: 6 });
const integerLike = (key: string) => /^(0|[1-9]\d*)$/.test(key);
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("topLevelFields", () => {
  it("should give each top-level field's name and raw value text", () => {
    expect(topLevelFields('{"a": [1, "]"], "b":{"c":"}"} , "\\u0041":-1.5e3,"n":null}'))
      .toEqual([["a", '[1, "]"]'], ["b", '{"c":"}"}'], ["A", "-1.5e3"], ["n", "null"]]);
    expect(topLevelFields(" {} ")).toEqual([]);
    for (const text of ["[]", "1", "\"x\"", "null", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{}x"]) expect(topLevelFields(text), text).toBeNull();
  });

  it("should read any object's text as JSON.parse reads it", () => {
    fc.assert(fc.property(jsonObject, fc.constantFrom(undefined, 2), (value, indent) => {
      const fields = topLevelFields(JSON.stringify(value, null, indent))!;
      // Through JSON once: -0 is written as 0.
      expect(Object.fromEntries(fields.map(([k, raw]) => [k, JSON.parse(raw) as unknown]))).toEqual(JSON.parse(JSON.stringify(value)));
    }));
  });
});

describe("compactJson", () => {
  it("should remove whitespace between tokens and keep it in strings", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(compactJson(JSON.stringify(value, null, 2))).toBe(JSON.stringify(value));
    }));
  });
});

describe("mergeTopLevelText", () => {
  it("should merge as mergeTopLevel does, written compactly", () => {
    fc.assert(fc.property(jsonObject, jsonObject, (stored, patch) => {
      const text = mergeTopLevelText(JSON.stringify(stored, null, 1), JSON.stringify(patch))!;
      const model = mergeTopLevel(stored, patch);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(model)));
      // Integer-like names come first in an object, wherever the text had them: only compare texts without them.
      if (!Object.keys({ ...stored, ...patch }).some(integerLike)) expect(text).toBe(JSON.stringify(model));
    }));
    expect(mergeTopLevelText(undefined, '{"a":1,"b":null}')).toBe('{"a":1}');
    expect(mergeTopLevelText("[1]", '{"a":1}')).toBeNull();
    expect(mergeTopLevelText('{"__proto__":1,"a":2}', '{"a":null,"__proto__":{"x":true}}')).toBe('{"__proto__":{"x":true}}');
  });

  it("should merge into a stored value of any depth without walking it", () => {
    const stored = `{"deep":${nested(200_000)},"keep":1}`;
    expect(mergeTopLevelText(stored, '{"keep":2}')).toBe(`{"deep":${nested(200_000)},"keep":2}`);
  });
});

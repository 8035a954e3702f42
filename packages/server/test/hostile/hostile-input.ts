import fc from "fast-check";
import { JSON_DEPTH_MAX, snakeCase, type MessageShape } from "@playfield/core";

/*
 * Hostile input for the fuzz properties: names a plain object answers from
 * its prototype, deep nesting, huge strings, wrong types. Values are JSON
 * text fragments, so a body nested 30,000 deep is built as text (the test
 * itself never walks it).
 */

/** Every name a plain object answers from its prototype. */
export const PROTOTYPE_NAMES: readonly string[] = [...new Set([...Object.getOwnPropertyNames(Object.prototype), "__proto__", "prototype"])];

/** JSON text of arrays nested `depth` deep. */
export const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
/** JSON text of objects nested `depth` deep. */
export const nestedObjects = (depth: number) => '{"a":'.repeat(depth - 1) + "{}" + "}".repeat(depth - 1);

const DEPTHS = [JSON_DEPTH_MAX, JSON_DEPTH_MAX + 1, 5_000, 30_000];

/**
 * Strings a database may take differently from memory: NUL (PostgreSQL text
 * and jsonb refuse it), lone surrogates (not UTF-8), U+FFFF and astral
 * characters (the edges of a key encoding), quotes and LIKE wildcards.
 */
export const STORAGE_HOSTILE_STRINGS: readonly string[] = [
  "a\u0000b", "\u0000", "\ud800", "x\udfffy", "\uffff", "\ufeff", "😀".repeat(300), "'; DROP TABLE users; --", "\\", "%_", "\u0001\u001f",
];

/** Strings a hostile caller puts in a string field. */
export function hostileString(known: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.constantFrom(...DEPTHS.flatMap((d) => [nestedArrays(d), nestedObjects(d)])) },
    { weight: 1, arbitrary: fc.constantFrom(...STORAGE_HOSTILE_STRINGS) },
    { weight: 1, arbitrary: fc.constantFrom("x".repeat(100_000), "é".repeat(70_000), "\u0000\u202e\ud800", "", " ", "-1", "9".repeat(40), "NaN", "%00", "../..", "dm:__proto__", "group:constructor", "session:toString") },
    ...(known.length > 0 ? [{ weight: 3, arbitrary: fc.constantFrom(...known) }] : []),
  );
}

/** A JSON text fragment: any value a field may be sent, of the right type or not. */
export function hostileFragment(known: readonly string[] = []): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: hostileString(known).map((s) => JSON.stringify(s)) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constantFrom(...DEPTHS.flatMap((d) => [nestedArrays(d), nestedObjects(d)])) },
    { weight: 1, arbitrary: fc.constantFrom("1e308", "-0", "9007199254740993", "-9007199254740993", "2147483648", "1.5", "true", "null", "{}", "[]") },
    {
      weight: 2,
      arbitrary: fc.dictionary(fc.constantFrom(...PROTOTYPE_NAMES, "web", "head", "1", "desktop"), hostileString(known).map((s) => JSON.stringify(s)), { maxKeys: 4 })
        .map((entries) => `{${Object.entries(entries).map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
    },
  );
}

/** A request body for a method: its own fields (camelCase or snake_case), prototype names and unknown fields, each with a hostile value. */
export function hostileBody(input: MessageShape, known: readonly string[] = []): fc.Arbitrary<string> {
  const names = input.fields.flatMap((f) => (snakeCase(f.name) === f.name ? [f.name] : [f.name, snakeCase(f.name)]));
  const fieldName = fc.oneof(
    { weight: 6, arbitrary: names.length > 0 ? fc.constantFrom(...names) : fc.constant("x") },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES, "unknownField") },
  );
  const structured = fc.array(fc.tuple(fieldName, hostileFragment(known)), { maxLength: 6 })
    .map((pairs) => `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`);
  return fc.oneof(
    { weight: 8, arbitrary: structured },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom(nestedArrays(100_000), nestedObjects(30_000), "", "{", "\u0000")) },
  );
}

/** Whether an `invalid_argument` message names what was wrong: a field path (`a.b[2]`), `body` or `content-type`, then `: rule`. */
export const NAMES_A_FIELD = /^[A-Za-z_][\w]*(?:\.[\w$-]+|\[\d+\])*: \S/;

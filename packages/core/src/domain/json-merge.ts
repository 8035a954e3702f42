/*
 * The merge of DatastoreService.Update (spec rule 7): a patch object merged
 * one level deep into the stored object. Each top-level field of the patch
 * replaces the stored one whatever it holds (objects are not merged
 * recursively), a null removes the field, and a missing entry starts as {}.
 */

import { compactJson, topLevelFields } from "../json/json-text-fields.js";

/** A JSON object: what Update merges into and with. */
export type JsonObject = { [field: string]: unknown };

/** Whether a parsed JSON value is an object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The stored object after the patch: a new object, neither input changed.
 * `stored` is undefined for a missing entry. Field order: the stored fields
 * in their order, then the new ones in the patch's order.
 */
export function mergeTopLevel(stored: JsonObject | undefined, patch: JsonObject): JsonObject {
  // A Map, then fromEntries: a field named "__proto__" stays a plain field (assigning it would set the prototype).
  const merged = new Map(Object.entries(stored ?? {}));
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) merged.delete(field);
    else merged.set(field, value);
  }
  return Object.fromEntries(merged);
}

/**
 * The merge on JSON text, as DatastoreService.Update stores it: the same
 * rule as `mergeTopLevel`, done on the top-level fields' raw text, so that
 * neither value is parsed into objects or walked (a stored value of any size
 * or depth merges in one pass). Answers compact JSON text (fields in the
 * stored text's order, then new ones in the patch's; a field named twice
 * keeps its first place and its last value, as JSON.parse does), or null
 * when `stored` is not a JSON object. `stored` is undefined for a missing
 * entry; `patch` must be a JSON object's text.
 *
 * @example
 * mergeTopLevelText('{"a":1,"b":2}', '{"b":null,"c":[3]}') // '{"a":1,"c":[3]}'
 */
export function mergeTopLevelText(stored: string | undefined, patch: string): string | null {
  const current = stored === undefined ? [] : topLevelFields(stored);
  const changes = topLevelFields(patch);
  if (current === null || changes === null) return null;
  // A Map: field names are the caller's, and "__proto__" is a field like any other.
  const merged = new Map(current);
  for (const [field, raw] of changes) {
    if (raw === "null") merged.delete(field);
    else merged.set(field, raw);
  }
  let text = "{";
  for (const [field, raw] of merged) text += `${text.length > 1 ? "," : ""}${JSON.stringify(field)}:${compactJson(raw)}`;
  return `${text}}`;
}

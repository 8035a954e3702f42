/*
 * The merge of DatastoreService.Update (spec rule 7): a patch object merged
 * one level deep into the stored object. Each top-level field of the patch
 * replaces the stored one whatever it holds (objects are not merged
 * recursively), a null removes the field, and a missing entry starts as {}.
 */

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

/**
 * Canonical JSON of parsed JSON data, as the state hash reads it (keys
 * sorted by UTF-16 code units, no spaces, numbers as JavaScript writes
 * them): the same text `readCanonicalState` makes of a JavaScript script's
 * state, so equal data in either language has equal `state_hash`.
 *
 * @example
 * canonicalJson(JSON.parse('{"b": 1.0, "a": [true]}')) // '{"a":[true],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return typeof value === "number" ? String(value) : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(",")}}`;
}

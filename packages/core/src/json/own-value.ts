/*
 * Tables of names looked up by a caller's string. A plain object answers
 * `constructor`, `toString` or `__proto__` from its prototype, so a lookup
 * of a client-supplied key goes through this function (or a Map) and never
 * through `table[key]`.
 */

/**
 * The value an object holds under `key` as its own property, or undefined:
 * inherited properties (`constructor`, `__proto__`, `toString`, …) are not
 * entries of a table.
 *
 * @example
 * ownValue({ web: "1.0" }, "toString") // undefined, not Object.prototype.toString
 */
export function ownValue<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/*
 * Parameters written into a statement's text, where a statement goes as
 * text: on PGlite, whose messages are simple queries (a simple query takes
 * no parameters: sql-statement.ts writes a prepared statement there as
 * `EXECUTE name(literals)`); a list of ids too long for one statement to
 * bind; and notices. Only the kinds of value the adapter binds are taken:
 * bytes, text, whole numbers, null.
 */

/** `text` with each `$n` replaced by params[n - 1] as an SQL literal (the text itself when there are none). */
export function inlineParams(text: string, params: readonly unknown[]): string {
  if (params.length === 0) return text;
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const index = Number(n) - 1;
    if (index >= params.length) throw new RangeError(`statement refers to $${n}, but has ${params.length} parameters`);
    return literal(params[index]);
  });
}

/** What an escape string cannot hold as it is: a backslash, a quote. */
const NEEDS_ESCAPE = /[\\']/;

/** One value as an SQL literal. */
export function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (value instanceof Uint8Array) return `'\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}'`;
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  if (typeof value === "string") {
    if (value.includes("\u0000")) throw new TypeError("an SQL text value cannot hold NUL");
    // Dollar quoting reads the text as it is (rows are JSON, full of backslashes to escape otherwise), whatever
    // standard_conforming_strings says; a scan for its tag costs far less than escaping (a Datastore Set's entry
    // row: 0.6 µs escaped, 0.04 µs quoted). A text holding "$_" could close the quote early: an escape string.
    if (!value.includes("$_")) return `$_$${value}$_$`;
    if (!NEEDS_ESCAPE.test(value)) return `E'${value}'`;
    return `E'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
  }
  throw new TypeError(`no SQL literal for ${typeof value}`);
}

/*
 * Rows as text: JSON, with typed arrays (blob_bytes holds a Uint8Array) as
 * tagged base64. The column is `text`, not `jsonb`: jsonb
 * refuses "\u0000" and lone surrogates, which strings in rows may hold, and
 * JSON.stringify writes both as escapes, so the text itself is plain UTF-8.
 *
 * A typed array becomes `{"\u0000Int32Array": "<base64 of its bytes>"}`, a
 * key no JSON data of a row can produce: a row's own object keys that start
 * with "\u0000" are written with one more "\u0000" in front, and read back
 * without it. Text holding no "\u0000" escape at all (nearly every row) is
 * read with a plain JSON.parse.
 */

const TYPED_ARRAYS = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
} as const;
type TypedArrayName = keyof typeof TYPED_ARRAYS;

const MARK = "\u0000";
/** How "\u0000" appears in JSON.stringify's output. */
const ESCAPED_MARK = "\\u0000";

/** A row as the text stored in its table. */
export function encodeRow(row: unknown): string {
  // Nearly every row holds neither: JSON.stringify without a replacer is the fast path.
  return plainJson(row) ? JSON.stringify(row) : JSON.stringify(row, replace);
}

/** Whether `value` holds no typed array and no object key starting with "\u0000" (a walk, no allocation). */
function plainJson(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (ArrayBuffer.isView(value)) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!plainJson(item)) return false;
    return true;
  }
  for (const key in value) {
    if (key.startsWith(MARK) || !plainJson((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** A row back from its stored text. */
export function decodeRow<R>(text: string): R {
  return (text.includes(ESCAPED_MARK) ? JSON.parse(text, revive) : JSON.parse(text)) as R;
}

function replace(this: unknown, _key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  if (ArrayBuffer.isView(value)) {
    const name = value.constructor.name;
    if (!Object.hasOwn(TYPED_ARRAYS, name)) throw new TypeError(`a row cannot hold a ${name}`);
    const bytes = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return { [MARK + name]: bytes.toString("base64") };
  }
  if (!Object.keys(value).some((key) => key.startsWith(MARK))) return value;
  return renameKeys(value, (key) => (key.startsWith(MARK) ? MARK + key : key));
}

function revive(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const first = keys[0];
  if (keys.length === 1 && first!.startsWith(MARK) && !first!.startsWith(MARK + MARK)) {
    return typedArray(first!.slice(1), (value as Record<string, unknown>)[first!]);
  }
  if (!keys.some((key) => key.startsWith(MARK))) return value;
  return renameKeys(value, (key) => (key.startsWith(MARK) ? key.slice(1) : key));
}

/** A copy of `object` with its keys renamed, in the same order. */
function renameKeys(object: object, rename: (key: string) => string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [rename(key), value]));
}

function typedArray(name: string, base64: unknown): unknown {
  if (!Object.hasOwn(TYPED_ARRAYS, name) || typeof base64 !== "string") throw new TypeError(`stored row holds an unknown tag ${JSON.stringify(name)}`);
  const Type = TYPED_ARRAYS[name as TypedArrayName];
  const bytes = Buffer.from(base64, "base64");
  // Copied to a buffer of its own: the decoded bytes may sit at an offset no element size divides.
  const buffer = new ArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  return new Type(buffer);
}

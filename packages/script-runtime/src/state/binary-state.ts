/**
 * Canonical JSON from QuickJS's binary JSON: the bytes `JS_WriteObject`
 * writes for a value (with object references), read straight out of the
 * engine's memory. Writing binary JSON is native code in the engine, so a
 * tick does not interpret a canonicalizer: the host reads the bytes, checks
 * that they hold JSON data, sorts the keys and writes the text.
 *
 * The layout read here (QuickJS 2025-09-13, binary JSON version 5): a
 * version byte; the atom table (a LEB128 count, then strings); the value.
 * A value is a tag byte and its body. Each object and array gets the next
 * index when it starts; a later reference names that index.
 */

/** The version byte this reader understands. */
export const BINARY_JSON_VERSION = 5;

/** How deep objects and arrays in a state may nest. */
export const MAX_STATE_DEPTH = 64;

const TAG_NULL = 1;
const TAG_UNDEFINED = 2;
const TAG_FALSE = 3;
const TAG_TRUE = 4;
const TAG_INT32 = 5;
const TAG_FLOAT64 = 6;
const TAG_STRING = 7;
const TAG_OBJECT = 8;
const TAG_ARRAY = 9;
const TAG_REFERENCE = 19;

/**
 * What reading a state gave: its canonical JSON, or why it is not JSON
 * data (`problem`), or that its JSON is longer than allowed.
 */
export type StateReading =
  | { json: string; problem?: undefined; tooLarge?: undefined }
  | { problem: string; json?: undefined; tooLarge?: undefined }
  | { tooLarge: true; json?: undefined; problem?: undefined };

/** Thrown inside the reader; turned into a {@link StateReading} at its edge. */
class Stop {
  constructor(readonly reading: StateReading) {}
}

// The reader's cursor, at module level: a tick reads a state without
// making a closure (with a thousand scripts, per-call allocations show).
let bytes: Uint8Array = new Uint8Array(0);
let at = 0;
let end = 0;
let maxDepth = 0;
let maxChars = 0;
let floats: DataView = new DataView(bytes.buffer);
let atoms: string[] = [];
// The text of each object or array by index; null while it is being written (an ancestor).
let objects: (string | null)[] = [];

/**
 * Reads the binary JSON in `source[start, stop)` as canonical JSON (keys
 * sorted by UTF-16 code units, no spaces, numbers as JavaScript writes
 * them). Anything that is not JSON data (undefined, NaN, a function, a Date,
 * a cycle, nesting deeper than `depthLimit`…) is a `problem`; a JSON text
 * longer than `charLimit` characters is `tooLarge` (checked as the text is
 * built, so shared objects cannot blow the work up).
 *
 * @example
 * readCanonicalState(bytes, 0, bytes.length, 64, 1 << 20) // { json: '{"a":1,"b":[true]}' }
 */
export function readCanonicalState(source: Uint8Array, start: number, stop: number, depthLimit: number, charLimit: number): StateReading {
  if (source.buffer !== bytes.buffer || source.byteOffset !== bytes.byteOffset) floats = new DataView(source.buffer, source.byteOffset, source.byteLength);
  bytes = source;
  at = start;
  end = stop;
  maxDepth = depthLimit;
  maxChars = charLimit;
  try {
    if (byte() !== BINARY_JSON_VERSION) return { problem: "binary JSON of an unknown version" };
    const atomCount = leb();
    for (let i = 0; i < atomCount; i++) atoms.push(text());
    const json = value(0);
    checkSize(json);
    if (at !== end) return { problem: "binary JSON has bytes after the value" };
    return { json };
  } catch (error) {
    if (error instanceof Stop) return error.reading;
    throw error;
  } finally {
    atoms = [];
    objects = [];
  }
}

function problem(what: string): never {
  throw new Stop({ problem: what });
}

function need(n: number): void {
  if (at + n > end) problem("binary JSON ended early");
}

function byte(): number {
  need(1);
  return bytes[at++]!;
}

function leb(): number {
  let result = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    const b = byte();
    result += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return result;
  }
  return problem("binary JSON has a malformed number");
}

function text(): string {
  const head = leb();
  const length = Math.floor(head / 2);
  const wide = head % 2 === 1;
  need(wide ? length * 2 : length);
  let out = "";
  if (wide) {
    for (let i = 0; i < length; i++, at += 2) out += String.fromCharCode(bytes[at]! | (bytes[at + 1]! << 8));
  } else if (length < 64) {
    for (let i = 0; i < length; i++) out += String.fromCharCode(bytes[at + i]!);
    at += length;
  } else {
    for (let i = 0; i < length; i += 4096) {
      out += String.fromCharCode.apply(null, bytes.subarray(at + i, at + Math.min(length, i + 4096)) as unknown as number[]);
    }
    at += length;
  }
  return out;
}

function key(): string {
  const v = leb();
  if (v % 2 === 1) return String((v - 1) / 2); // an integer key
  return atoms[v / 2 - 1] ?? problem("binary JSON names an unknown key");
}

function checkSize(out: string): void {
  if (out.length > maxChars) throw new Stop({ tooLarge: true });
}

function value(depth: number): string {
  const tag = byte();
  switch (tag) {
    case TAG_NULL: return "null";
    case TAG_FALSE: return "false";
    case TAG_TRUE: return "true";
    case TAG_INT32: {
      const zigzag = leb();
      return String(zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2);
    }
    case TAG_FLOAT64: {
      need(8);
      const x = floats.getFloat64(at, true);
      at += 8;
      if (!Number.isFinite(x)) problem(String(x));
      return String(x);
    }
    case TAG_STRING: return JSON.stringify(text());
    case TAG_OBJECT: return object(depth);
    case TAG_ARRAY: return array(depth);
    case TAG_REFERENCE: {
      const shared = objects[leb()];
      if (shared === undefined) return problem("binary JSON refers to an unknown object");
      if (shared === null) return problem("a cycle");
      return shared;
    }
    case TAG_UNDEFINED: return problem("undefined");
    default: return problem("not JSON data");
  }
}

function array(depth: number): string {
  if (depth >= maxDepth) problem(`nested deeper than ${maxDepth} levels`);
  const index = objects.length;
  objects.push(null);
  const count = leb();
  let out = "[";
  for (let i = 0; i < count; i++) {
    if (i > 0) out += ",";
    out += value(depth + 1);
    if (out.length > maxChars) checkSize(out);
  }
  out += "]";
  objects[index] = out;
  return out;
}

function object(depth: number): string {
  if (depth >= maxDepth) problem(`nested deeper than ${maxDepth} levels`);
  const index = objects.length;
  objects.push(null);
  const count = leb();
  let out: string;
  if (count === 1) {
    // Most objects in a state are small: no array to sort for one key.
    const k = key();
    out = `{${JSON.stringify(k)}:${value(depth + 1)}}`;
  } else {
    const keys = new Array<string>(count);
    const values = new Map<string, string>();
    for (let i = 0; i < count; i++) {
      const k = key();
      keys[i] = k;
      values.set(k, value(depth + 1));
    }
    keys.sort();
    out = "{";
    for (let i = 0; i < count; i++) {
      if (i > 0) out += ",";
      out += `${JSON.stringify(keys[i])}:${values.get(keys[i]!)!}`;
      if (out.length > maxChars) checkSize(out);
    }
    out += "}";
  }
  checkSize(out);
  objects[index] = out;
  return out;
}

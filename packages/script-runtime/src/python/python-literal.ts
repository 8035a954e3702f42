/**
 * Reads a Python script's state as canonical JSON (keys sorted by UTF-16
 * code units, no spaces, numbers as JavaScript writes them: the text a
 * JavaScript script's state gives, so equal data has equal `state_hash`)
 * straight from the engine's memory, where the prelude wrote
 * `repr([self.state])` as NUL-terminated UTF-8 bytes. MicroPython writes it
 * in native code, and `repr` tells every type apart (a tuple, a key that is
 * not a str, an object, `nan`, an int of any size), so reading it is the
 * check that the state is JSON data: `dict` with str keys, `list`, `str`,
 * `int` within ±2**53, finite `float`, `bool`, `None`, at most `maxDepth`
 * levels. Anything else answers `undefined` (the prelude then names the
 * path).
 *
 * @example
 * readPythonState(utf8("[{'b': 1.0, 'a': [True, None]}]\0"), 0, 64) // '{"a":[true,null],"b":1}'
 */
export function readPythonState(memory: Uint8Array, start: number, maxDepth: number): string | undefined {
  src = memory;
  at = start;
  depthLimit = maxDepth;
  try {
    expect(LEFT_BRACKET);
    const json = read(0);
    expect(RIGHT_BRACKET);
    return src[at] === 0 ? json : undefined;
  } catch (error) {
    if (error === NOT_DATA) return undefined;
    throw error;
  }
}

const NOT_DATA = Symbol("not JSON data");
const SPACE = 32;
const QUOTE = 39;
const DOUBLE_QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const LEFT_BRACKET = 91;
const RIGHT_BRACKET = 93;
const LEFT_BRACE = 123;
const RIGHT_BRACE = 125;

// A short run is quicker made by String.fromCharCode than by a decoder's call.
const latin1 = new TextDecoder("latin1");

// The reader's cursor, at module level: a tick reads a state without making a closure.
let src: Uint8Array = new Uint8Array(0);
let at = 0;
let depthLimit = 64;

function fail(): never {
  throw NOT_DATA;
}

function expect(c: number) {
  if (src[at] !== c) fail();
  at++;
}

function skipSpaces() {
  while (src[at] === SPACE) at++;
}

function read(depth: number): string {
  skipSpaces();
  const c = src[at];
  if (c === LEFT_BRACE) {
    if (depth >= depthLimit) fail();
    at++;
    skipSpaces();
    if (src[at] === RIGHT_BRACE) { at++; return "{}"; }
    const entries: [string, string][] = [];
    for (;;) {
      skipSpaces();
      const q = src[at];
      if (q !== QUOTE && q !== DOUBLE_QUOTE) fail();
      const key = readString();
      skipSpaces();
      expect(COLON);
      entries.push([key, read(depth + 1)]);
      skipSpaces();
      if (src[at] === COMMA) { at++; continue; }
      expect(RIGHT_BRACE);
      break;
    }
    if (entries.length === 1) return `{${JSON.stringify(entries[0]![0])}:${entries[0]![1]}}`;
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    let out = "{";
    for (let i = 0; i < entries.length; i++) {
      // A key repeated would be two different objects in Python that print alike.
      if (i > 0 && entries[i]![0] === entries[i - 1]![0]) fail();
      out += `${i > 0 ? "," : ""}${JSON.stringify(entries[i]![0])}:${entries[i]![1]}`;
    }
    return `${out}}`;
  }
  if (c === LEFT_BRACKET) {
    if (depth >= depthLimit) fail();
    at++;
    skipSpaces();
    if (src[at] === RIGHT_BRACKET) { at++; return "[]"; }
    let out = "[";
    for (;;) {
      out += read(depth + 1);
      skipSpaces();
      if (src[at] === COMMA) { at++; out += ","; continue; }
      expect(RIGHT_BRACKET);
      return `${out}]`;
    }
  }
  if (c === QUOTE || c === DOUBLE_QUOTE) return JSON.stringify(readString());
  if (word("True")) return "true";
  if (word("False")) return "false";
  if (word("None")) return "null";
  return readNumber();
}

function word(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (src[at + i] !== text.charCodeAt(i)) return false;
  at += text.length;
  return true;
}

const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/;

function readNumber(): string {
  const start = at;
  // Most numbers in a state are small ints: read them digit by digit, with no text to make.
  const negative = src[at] === 45;
  if (negative) at++;
  let value = 0;
  let digits = 0;
  for (let c = src[at]!; c >= 48 && c <= 57 && digits < 15; c = src[++at]!, digits++) value = value * 10 + (c - 48);
  const next = src[at]!;
  if (digits > 0 && !(next >= 48 && next <= 57) && next !== 46 && next !== 101) return String(negative ? -value : value);
  at = start;
  let text = "";
  for (let c = src[at]!; (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101; c = src[++at]!) text += String.fromCharCode(c);
  const m = NUMBER.exec(text);
  if (!m) fail();
  const number = Number(text);
  if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(number)) fail();
  if (!Number.isFinite(number)) fail();
  return String(number);
}

function readString(): string {
  const quote = src[at++];
  let out = "";
  for (;;) {
    const c = src[at];
    if (c === undefined || c === 0) fail();
    if (c === quote) {
      at++;
      return out;
    }
    if (c >= 0x80) {
      out += String.fromCodePoint(utf8());
      continue;
    }
    if (c !== BACKSLASH) {
      // A run of plain ASCII at once.
      const start = at;
      while (src[at]! < 0x80 && src[at] !== quote && src[at] !== BACKSLASH && src[at] !== 0) at++;
      out += at - start <= 32 ? String.fromCharCode.apply(null, src.subarray(start, at) as unknown as number[]) : latin1.decode(src.subarray(start, at));
      continue;
    }
    at++;
    const e = src[at++];
    switch (e) {
      case BACKSLASH: out += "\\"; break;
      case QUOTE: out += "'"; break;
      case DOUBLE_QUOTE: out += "\""; break;
      case 110: out += "\n"; break;
      case 114: out += "\r"; break;
      case 116: out += "\t"; break;
      case 120: out += hex(2); break;
      case 117: out += hex(4); break;
      case 85: out += hex(8); break;
      default: fail();
    }
  }
}

/** One UTF-8 sequence (MicroPython writes non-ASCII characters of a str as they are). */
function utf8(): number {
  const c = src[at]!;
  const length = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : fail();
  let code = c & (0xff >> (length + 1));
  for (let i = 1; i < length; i++) {
    const next = src[at + i]!;
    if ((next & 0xc0) !== 0x80) fail();
    code = (code << 6) | (next & 0x3f);
  }
  if (code > 0x10ffff) fail();
  at += length;
  return code;
}

function hex(digits: number): string {
  let code = 0;
  for (let i = 0; i < digits; i++) {
    const c = src[at + i]!;
    const v = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : fail();
    code = code * 16 + v;
  }
  if (code > 0x10ffff) fail();
  at += digits;
  return String.fromCodePoint(code);
}

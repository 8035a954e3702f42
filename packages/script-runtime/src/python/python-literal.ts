/**
 * Reads a Python script's state from `repr(self.state)`: MicroPython writes
 * it in native code, and `repr` tells every type apart (a tuple, a key that
 * is not a str, an object, `nan`, an int of any size), so reading it is the
 * check that the state is JSON data: `dict` with str keys, `list`, `str`,
 * `int` within ±2**53, finite `float`, `bool`, `None`, at most `maxDepth`
 * levels. Anything else answers `undefined` (the prelude then names the path).
 *
 * @example
 * readPythonState("{'a': [1, 2.5, True, None]}", 64) // { a: [1, 2.5, true, null] }
 */
export function readPythonState(text: string, maxDepth: number): unknown {
  at = 0;
  src = text;
  depthLimit = maxDepth;
  try {
    const value = read(0);
    skipSpaces();
    return at === src.length ? value : undefined;
  } catch (error) {
    if (error === NOT_DATA) return undefined;
    throw error;
  }
}

const NOT_DATA = Symbol("not JSON data");
let src = "";
let at = 0;
let depthLimit = 64;

function fail(): never {
  throw NOT_DATA;
}

function skipSpaces() {
  while (src.charCodeAt(at) === 32) at++;
}

function read(depth: number): unknown {
  skipSpaces();
  const c = src[at];
  if (c === "{") {
    if (depth >= depthLimit) fail();
    at++;
    const out: Record<string, unknown> = {};
    skipSpaces();
    if (src[at] === "}") { at++; return out; }
    for (;;) {
      skipSpaces();
      const q = src[at];
      if (q !== "'" && q !== "\"") fail();
      const key = readString();
      skipSpaces();
      if (src[at] !== ":") fail();
      at++;
      // A key repeated would be two different objects in Python that print alike.
      if (Object.prototype.hasOwnProperty.call(out, key)) fail();
      Object.defineProperty(out, key, { value: read(depth + 1), enumerable: true, writable: true, configurable: true });
      skipSpaces();
      if (src[at] === ",") { at++; continue; }
      if (src[at] === "}") { at++; return out; }
      fail();
    }
  }
  if (c === "[") {
    if (depth >= depthLimit) fail();
    at++;
    const out: unknown[] = [];
    skipSpaces();
    if (src[at] === "]") { at++; return out; }
    for (;;) {
      out.push(read(depth + 1));
      skipSpaces();
      if (src[at] === ",") { at++; continue; }
      if (src[at] === "]") { at++; return out; }
      fail();
    }
  }
  if (c === "'" || c === "\"") return readString();
  if (src.startsWith("True", at)) { at += 4; return true; }
  if (src.startsWith("False", at)) { at += 5; return false; }
  if (src.startsWith("None", at)) { at += 4; return null; }
  return readNumber();
}

const NUMBER = /-?\d+(\.\d+)?(e[+-]?\d+)?/y;

function readNumber(): number {
  NUMBER.lastIndex = at;
  const m = NUMBER.exec(src);
  if (!m) fail();
  at += m[0].length;
  const value = Number(m[0]);
  if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(value)) fail();
  if (!Number.isFinite(value)) fail();
  return value;
}

function readString(): string {
  const quote = src[at++];
  let out = "";
  let start = at;
  for (;;) {
    const c = src[at];
    if (c === undefined) fail();
    if (c === quote) {
      out += src.slice(start, at++);
      return out;
    }
    if (c !== "\\") { at++; continue; }
    out += src.slice(start, at);
    const e = src[at + 1];
    at += 2;
    switch (e) {
      case "\\": out += "\\"; break;
      case "'": out += "'"; break;
      case "\"": out += "\""; break;
      case "n": out += "\n"; break;
      case "r": out += "\r"; break;
      case "t": out += "\t"; break;
      case "x": out += hex(2); break;
      case "u": out += hex(4); break;
      case "U": out += hex(8); break;
      default: fail();
    }
    start = at;
  }
}

function hex(digits: number): string {
  const text = src.slice(at, at + digits);
  if (!/^[0-9a-fA-F]+$/.test(text) || text.length !== digits) fail();
  at += digits;
  return String.fromCodePoint(parseInt(text, 16));
}

/*
 * JSON text read without parsing it into values: the top-level fields of an
 * object as raw text, and whitespace removed. One pass each, no recursion,
 * so a value of any depth (one stored before the nesting limit, say) can be
 * merged into and written out without walking it.
 */

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const QUOTE = 0x22, BACKSLASH = 0x5c, COLON = 0x3a, COMMA = 0x2c;
const OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d, OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d;

/** The index just after the string that starts at `i` (a quote), or -1 when it never ends. */
function afterString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/** The index just after the JSON value that starts at `i`, or -1 when it never ends. */
function afterValue(text: string, i: number): number {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === QUOTE) {
      const end = afterString(text, j);
      if (end < 0) return -1;
      if (depth === 0) return end;
      j = end - 1;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      if (depth === 0) return j;
      depth--;
      if (depth === 0) return j + 1;
    } else if (depth === 0 && (c === COMMA || isSpace(c))) {
      return j;
    }
  }
  return depth === 0 ? text.length : -1;
}

/**
 * The top-level fields of a JSON object's text, in order, each as its name
 * and its value's raw text; null when the text is not a JSON object. Names
 * repeat as often as the text repeats them. Values are not checked: the
 * text is expected to be JSON already.
 *
 * @example
 * topLevelFields('{"a": [1, 2], "b":{}}') // [["a", "[1, 2]"], ["b", "{}"]]
 */
export function topLevelFields(text: string): [string, string][] | null {
  let i = 0;
  const skip = () => { while (i < text.length && isSpace(text.charCodeAt(i))) i++; };
  skip();
  if (text.charCodeAt(i) !== OPEN_OBJECT) return null;
  i++;
  const fields: [string, string][] = [];
  skip();
  if (text.charCodeAt(i) === CLOSE_OBJECT) {
    i++;
    skip();
    return i === text.length ? fields : null;
  }
  for (;;) {
    skip();
    if (text.charCodeAt(i) !== QUOTE) return null;
    const nameEnd = afterString(text, i);
    if (nameEnd < 0) return null;
    let name: unknown;
    try {
      name = JSON.parse(text.slice(i, nameEnd));
    } catch {
      return null;
    }
    i = nameEnd;
    skip();
    if (text.charCodeAt(i) !== COLON) return null;
    i++;
    skip();
    const valueEnd = afterValue(text, i);
    if (valueEnd < 0 || valueEnd === i) return null;
    fields.push([name as string, text.slice(i, valueEnd)]);
    i = valueEnd;
    skip();
    const c = text.charCodeAt(i);
    i++;
    if (c === COMMA) continue;
    if (c !== CLOSE_OBJECT) return null;
    skip();
    return i === text.length ? fields : null;
  }
}

/** JSON text without the whitespace between tokens (strings kept as written). */
export function compactJson(text: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = afterString(text, i);
      if (end < 0) break;
      i = end - 1;
    } else if (isSpace(c)) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

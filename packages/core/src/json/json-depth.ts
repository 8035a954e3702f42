/*
 * Nesting limits of JSON. `JSON.parse` is iterative in V8, but
 * `JSON.stringify`, structured clones and any recursive walk overflow the
 * stack at a few thousand levels, so every JSON value the API accepts is
 * measured here first, iteratively, so that measuring cannot overflow either.
 */

/** The deepest nesting of arrays and objects in any JSON value the API accepts (DynamoDB's limit). */
export const JSON_DEPTH_MAX = 32;

/** The rule, worded once for every field it applies to. */
export const JSON_DEPTH_RULE = `at most ${JSON_DEPTH_MAX} levels of nesting`;

const QUOTE = 0x22, BACKSLASH = 0x5c, OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d, OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d;

/**
 * The deepest nesting of arrays and objects in JSON text (`1` → 0, `[]` →
 * 1, `{"a":[1]}` → 2), counting brackets outside strings in one pass. Stops
 * as soon as the depth passes `limit` and answers it then. Text that is not
 * JSON gets a number too: parsing decides whether it is JSON.
 */
export function jsonTextDepth(text: string, limit = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return deepest;
}

/**
 * The deepest nesting of arrays and objects in a parsed value, walked with a
 * stack of its own rather than recursion. Stops as soon as the depth passes
 * `limit` and answers it then.
 */
export function jsonValueDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    const here = depth + 1;
    if (here > deepest) {
      deepest = here;
      if (deepest > limit) return deepest;
    }
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) if (typeof child === "object" && child !== null) stack.push([child, here]);
  }
  return deepest;
}

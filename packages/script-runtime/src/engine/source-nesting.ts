/** Deepest bracket nesting the engine's parser is given: deeper sources could exhaust the host's native stack. */
export const MAX_SOURCE_NESTING = 200;

/**
 * The deepest nesting of `(`, `[` and `{` in a source, skipping comments and
 * string contents (approximately: regular expressions count as code, which
 * can only over-count).
 */
export function sourceNesting(source: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "/" && source[i + 1] === "/") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (c === "/" && source[i + 1] === "*") {
      i = source.indexOf("*/", i + 2);
      if (i < 0) break;
      i++;
    } else if (c === '"' || c === "'") {
      for (i++; i < source.length && source[i] !== c && source[i] !== "\n"; i++) if (source[i] === "\\") i++;
    } else if (c === "(" || c === "[" || c === "{") {
      depth++;
      if (depth > max) max = depth;
    } else if ((c === ")" || c === "]" || c === "}") && depth > 0) {
      depth--;
    }
  }
  return max;
}

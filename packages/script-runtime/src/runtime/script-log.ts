import { boundText } from "./bounded-text.js";

/** Most lines the `script.list` log keeps. */
export const LOG_LIMIT = 200;

/**
 * ScriptLog holds the runtime's log lines (loads, reloads, refusals,
 * did-not-load errors, unloads, pauses, resumes, manifest problems), newest
 * last, each starting with `[tick n]`, keeping the last {@link LOG_LIMIT},
 * each line's text cut at 4,096 characters (see `boundText`).
 */
export interface ScriptLog {
  add(tick: number, text: string): void;
  lines(): string[];
}

/** Creates an empty log. */
export function createScriptLog(limit = LOG_LIMIT): ScriptLog {
  const lines: string[] = [];
  return {
    add(tick, text) {
      lines.push(`[tick ${tick}] ${boundText(text)}`);
      if (lines.length > limit) lines.splice(0, lines.length - limit);
    },
    lines: () => [...lines],
  };
}

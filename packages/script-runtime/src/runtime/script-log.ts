/** Most lines the `script.list` log keeps. */
export const LOG_LIMIT = 200;

/**
 * ScriptLog holds the runtime's log lines (loads, reloads, refusals,
 * did-not-load errors, unloads, pauses, resumes, manifest problems), newest
 * last, each starting with `[tick n]`, keeping the last {@link LOG_LIMIT}.
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
      lines.push(`[tick ${tick}] ${text}`);
      if (lines.length > limit) lines.splice(0, lines.length - limit);
    },
    lines: () => [...lines],
  };
}

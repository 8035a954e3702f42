/**
 * Most characters of any text a script makes that the host keeps or
 * answers: an error message, `last_fault`, a log line, a console line. A
 * script can throw a message of megabytes; kept whole in 200 log lines it
 * would take the host's memory and make `script.list` too long to write.
 */
export const MAX_TEXT_CHARS = 4096;

/** What ends a text that was cut. */
export const TRUNCATED = "… [truncated]";

/**
 * The text itself when it fits in `max` characters; otherwise its first
 * `max` characters (never half of a surrogate pair) and the marker
 * {@link TRUNCATED}. (The marker gives no count: a sandbox cuts a long
 * message before the host sees it, so the host does not know its length.)
 */
export function boundText(text: string, max = MAX_TEXT_CHARS): string {
  if (text.length <= max) return text;
  let keep = max;
  const last = text.charCodeAt(keep - 1);
  if (last >= 0xd800 && last <= 0xdbff) keep -= 1;
  return text.slice(0, keep) + TRUNCATED;
}

/*
 * Chat message text limits (the spec leaves them open: docs/chat.md).
 */

/** The longest message, in characters (Unicode code points), after trimming. */
export const CHAT_TEXT_MAX = 500;
/** The most lines a message may have. */
export const CHAT_LINES_MAX = 20;
/** The longest `clientMessageId`. */
export const CLIENT_MESSAGE_ID_MAX = 64;

// C0 and C1 controls other than tab and newline, and bidi overrides that can disguise text.
const FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;
/** 1 or more printable ASCII characters, no spaces. */
export const CLIENT_MESSAGE_ID_PATTERN = /^[\x21-\x7e]+$/;

/** A checked text, or why it was refused (naming the field and the rule). */

/** A message text as it is stored: CRLF and CR read as LF, trimmed. */
export function normalizeChatText(input: string): string {
  return input.replace(/\r\n?/g, "\n").trim();
}

/** The rule a normalised text breaks (without the field name), or null: 1 to 500 characters, at most 20 lines, no control characters. */
export function chatTextRule(text: string): string | null {
  if (text === "") return "required";
  if (FORBIDDEN.test(text)) return "no control characters";
  let length = 0;
  for (const _ of text) {
    length += 1;
    if (length > CHAT_TEXT_MAX) return `at most ${CHAT_TEXT_MAX} characters`;
  }
  if (text.split("\n").length > CHAT_LINES_MAX) return `at most ${CHAT_LINES_MAX} lines`;
  return null;
}

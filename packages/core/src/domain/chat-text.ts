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
const CLIENT_ID = /^[\x21-\x7e]+$/;

/** A checked text, or why it was refused (naming the field and the rule). */
export type ChatTextResult = { ok: true; text: string } | { ok: false; error: string };

/** Checks and normalises a message text: CRLF to LF, trimmed, 1 to 500 characters, at most 20 lines, no control characters. */
export function checkChatText(input: unknown): ChatTextResult {
  if (typeof input !== "string") return { ok: false, error: "text: required" };
  const text = input.replace(/\r\n?/g, "\n").trim();
  if (text === "") return { ok: false, error: "text: required" };
  if (FORBIDDEN.test(text)) return { ok: false, error: "text: no control characters" };
  let length = 0;
  for (const _ of text) {
    length += 1;
    if (length > CHAT_TEXT_MAX) return { ok: false, error: `text: at most ${CHAT_TEXT_MAX} characters` };
  }
  if (text.split("\n").length > CHAT_LINES_MAX) return { ok: false, error: `text: at most ${CHAT_LINES_MAX} lines` };
  return { ok: true, text };
}

/** Why a `clientMessageId` is refused, or null: 1 to 64 printable ASCII characters. */
export function clientMessageIdError(input: unknown): string | null {
  if (typeof input !== "string" || input === "") return "clientMessageId: required";
  if (input.length > CLIENT_MESSAGE_ID_MAX) return `clientMessageId: at most ${CLIENT_MESSAGE_ID_MAX} characters`;
  if (!CLIENT_ID.test(input)) return "clientMessageId: printable ASCII without spaces";
  return null;
}

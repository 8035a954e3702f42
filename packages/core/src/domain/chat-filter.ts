/*
 * The chat text filter: a server part (ServerOptions `chatFilter`) so a
 * deployment can plug in its own. The default masks a small deny-list of
 * words, and contact details (e-mail addresses, long digit runs such as
 * phone numbers), for child-safe audiences only: a message from or to an
 * under-13 user.
 */

/** Who will read a filtered text. */
export interface ChatAudience {
  /** An under-13 user sends or reads the message. */
  childSafe: boolean;
}

/** Rewrites a message text for an audience; answers the text unchanged when there is nothing to hide. */
export interface ChatFilter {
  filter(text: string, audience: ChatAudience): string;
}

/** The default deny-list: a small set of English swear words (whole words, any case). */
export const DEFAULT_CHAT_DENY_LIST: readonly string[] = [
  "arse", "ass", "asshole", "bastard", "bitch", "bollocks", "crap", "cunt", "damn", "dick",
  "fuck", "fucker", "fucking", "motherfucker", "piss", "prick", "shit", "shitty", "slut", "twat", "wanker", "whore",
];

/** Options of `createDenyListFilter`. */
export interface DenyListOptions {
  /** Words to mask (whole words, any case). Default `DEFAULT_CHAT_DENY_LIST`. */
  words?: readonly string[];
  /** Also mask for audiences that are not child-safe. Default false. */
  everyone?: boolean;
  /** Mask e-mail addresses and runs of 7 or more digits for child-safe audiences. Default true. */
  contactDetails?: boolean;
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const mask = (match: string) => "#".repeat([...match].length);
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+/gu;
// Digits with optional spaces, dots or dashes between them: phone numbers written any way.
const DIGITS = /\d(?:[\s.-]?\d){6,}/g;

/** A filter that replaces each denied word (and, for children, contact details) with `#`s of the same length. */
export function createDenyListFilter(options: DenyListOptions = {}): ChatFilter {
  const words = (options.words ?? DEFAULT_CHAT_DENY_LIST).filter((w) => w.trim() !== "");
  // Letters and digits on either side end a word; `\b` would miss non-ASCII letters.
  const pattern = words.length === 0
    ? null
    : new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map((w) => escape(w.trim())).join("|")})(?![\\p{L}\\p{N}])`, "giu");
  const everyone = options.everyone ?? false;
  const contact = options.contactDetails ?? true;
  return {
    filter(text, audience) {
      if (!audience.childSafe && !everyone) return text;
      let out = pattern ? text.replace(pattern, mask) : text;
      if (audience.childSafe && contact) out = out.replace(EMAIL, mask).replace(DIGITS, mask);
      return out;
    },
  };
}

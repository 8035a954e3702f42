import type { Principal } from "./principal.js";

/** What a moderation check answers: allowed, or refused with a reason. */
export type ModerationVerdict = { ok: true } | { ok: false; reason: string };

/** A pluggable moderation check, run on every player's script before it is queued. */
export type ModerationHook = (input: { name: string; source: string; principal: Principal }) => ModerationVerdict | Promise<ModerationVerdict>;

/** The built-in moderation rules (from the script configuration). */
export interface ModerationRules {
  maxSourceBytes: number;
  /** Words refused anywhere in the source, ignoring case. */
  deny: readonly string[];
  /** Identifiers or constructs refused in code (comments and strings aside), e.g. `eval`, `constructor`, `import(`. */
  forbid: readonly string[];
  /** Refuse BigInt literals (a player's JavaScript: see the prelude's note on BigInt). */
  noBigInt?: boolean;
}

/**
 * Checks a player's script source against the rules: its size, the
 * deny-list and the forbidden constructs. Returns the first refusal.
 */
export function moderateSource(source: string, rules: ModerationRules): ModerationVerdict {
  const bytes = new TextEncoder().encode(source).length;
  if (bytes > rules.maxSourceBytes) return { ok: false, reason: `source is ${bytes} bytes, over the players' limit of ${rules.maxSourceBytes}` };
  const lower = source.toLowerCase();
  for (const word of rules.deny) {
    if (word !== "" && lower.includes(word.toLowerCase())) return { ok: false, reason: `source contains the denied word "${word}"` };
  }
  // Looked for in strings too (a template's expressions are code), so "1n" in a text is refused as well.
  if (rules.noBigInt === true && BIGINT_LITERAL.test(stripComments(source))) return { ok: false, reason: "source uses a BigInt literal: BigInt is not available to players' scripts (its work runs outside the fuel meter)" };
  const code = stripCommentsAndStrings(source);
  for (const construct of rules.forbid) {
    const escaped = construct.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const pattern = new RegExp(`(^|[^A-Za-z0-9_$])${escaped}${/[A-Za-z0-9_$]$/.test(construct) ? "(?![A-Za-z0-9_$])" : ""}`);
    if (pattern.test(code)) return { ok: false, reason: `source uses the forbidden construct "${construct}"` };
  }
  return { ok: true };
}

/** A BigInt literal: digits (decimal, hex, octal or binary) with the suffix n. */
const BIGINT_LITERAL = /(^|[^A-Za-z0-9_$.])(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\d[\d_]*)n(?![A-Za-z0-9_$])/;

/** The source with comments removed (approximate, for moderation only). */
function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/\/\/[^\n]*/g, " ");
}

/** The source with comments removed and string/template contents blanked (approximate, for moderation only). */
function stripCommentsAndStrings(source: string): string {
  return stripComments(source)
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""');
}

import { TokenType, type TokenClaims } from "@playfield/core";

const TOKEN_TYPES = new Set<unknown>(Object.values(TokenType));
const OPTIONAL_STRINGS = ["scope", "gsid", "xid", "jti"] as const;

/**
 * The claims in a parsed JWT payload, or undefined when it is not a claims
 * object: required fields present and typed, times whole numbers, optional
 * fields strings. Fields of no meaning to Playfield are dropped.
 */
export function claimsFromPayload(payload: unknown): TokenClaims | undefined {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return undefined;
  const p = payload as Record<string, unknown>;
  if (typeof p.sub !== "string" || typeof p.sid !== "string" || !TOKEN_TYPES.has(p.typ)) return undefined;
  if (!Number.isSafeInteger(p.iat) || !Number.isSafeInteger(p.exp)) return undefined;
  const claims: TokenClaims = { sub: p.sub, sid: p.sid, typ: p.typ as TokenType, iat: p.iat as number, exp: p.exp as number };
  for (const name of OPTIONAL_STRINGS) {
    const value = p[name];
    if (value === undefined) continue;
    if (typeof value !== "string") return undefined;
    claims[name] = value;
  }
  return claims;
}

/*
 * The claims of Playfield's JWTs (alg EdDSA). Pure: minting the claims and
 * judging their times here; signing and verifying live in the server.
 */

export const TokenType = {
  Access: "access",
  Scoped: "scoped",
  Game: "game",
} as const;
export type TokenType = (typeof TokenType)[keyof typeof TokenType];

export interface TokenClaims {
  /** The user id. */
  sub: string;
  /** The device session (refresh-token session) the token belongs to. */
  sid: string;
  typ: TokenType;
  /** Scoped tokens: `studio` or `avatar`. */
  scope?: string;
  /** Game tokens: the game session id. */
  gsid?: string;
  /** Game tokens: the experience id. */
  xid?: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expires at, seconds since the epoch. */
  exp: number;
  /** Unique token id. */
  jti?: string;
}

/** Token lifetimes in seconds (configurable). */
export interface TokenLifetimes {
  access: number;
  scoped: number;
  /** Game tokens live as long as the session membership; this caps them. */
  game: number;
  refresh: number;
}

export const DEFAULT_LIFETIMES: TokenLifetimes = {
  access: 15 * 60,
  scoped: 10 * 60,
  game: 24 * 60 * 60,
  refresh: 30 * 24 * 60 * 60,
};

/** Claims for a new token of a kind, issued at `nowMs`. */
export function mintClaims(
  base: Omit<TokenClaims, "iat" | "exp">,
  nowMs: number,
  lifetimeSeconds: number,
): TokenClaims {
  const iat = Math.floor(nowMs / 1000);
  return { ...base, iat, exp: iat + lifetimeSeconds };
}

/** Whether claims are expired at `nowMs` (a token is good up to and excluding `exp`). */
export function isExpired(claims: Pick<TokenClaims, "exp">, nowMs: number): boolean {
  return Math.floor(nowMs / 1000) >= claims.exp;
}

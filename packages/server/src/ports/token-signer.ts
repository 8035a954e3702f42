import type { TokenClaims } from "@playfield/core";

/**
 * TokenSigner signs and verifies Playfield's JWTs (compact form, header
 * `{"alg":"EdDSA","typ":"JWT","kid":…}`) and publishes its public keys.
 *
 * @example
 * const token = await signer.sign(mintClaims({ sub, sid, typ: TokenType.Access }, clock.now(), lifetimes.access));
 * const claims = await signer.verify(token, clock.now()); // or throws unauthenticated
 * @see https://www.rfc-editor.org/rfc/rfc8037 (EdDSA in JOSE)
 */
export interface TokenSigner {
  /** A JWT of the claims, signed with the first (current) key. */
  sign(claims: TokenClaims): Promise<string>;
  /**
   * The claims of a token signed by any of the keys and not expired at
   * `nowMs`. Throws `PlayfieldError(Code.Unauthenticated)` for anything else,
   * whatever the input. Does not check revocation: the caller does, on every
   * call.
   */
  verify(token: string, nowMs: number): Promise<TokenClaims>;
  /** The public keys, as served at `/.well-known/jwks.json`. */
  jwks(): Jwks;
}

/** A JSON Web Key Set of Ed25519 public keys (RFC 7517, RFC 8037). */
export interface Jwks {
  keys: Ed25519PublicJwk[];
}

/** An Ed25519 public key as a JWK. */
export interface Ed25519PublicJwk {
  kty: "OKP";
  crv: "Ed25519";
  /** The public key, base64url. */
  x: string;
  kid: string;
  alg: "EdDSA";
  use: "sig";
}

/*
 * Ed25519 signing keys of the token signer. Pure: works where `node:` is
 * absent; both signer backends take the same keys.
 */
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import { randomToken } from "./random-token.js";

/**
 * SigningKey is one Ed25519 key pair of the token signer, named by `kid`
 * (the JWT header's key id, and the JWKS entry's).
 */
export interface SigningKey {
  kid: string;
  /** The 32-byte Ed25519 seed (RFC 8032's private key). Secret. */
  privateKey: Uint8Array;
  /** The 32-byte Ed25519 public key. */
  publicKey: Uint8Array;
}

/**
 * A new random signing key; `kid` defaults to a random 11-character id.
 *
 * @example
 * const signer = createTokenSigner({ keys: [generateSigningKey("2026-01")] });
 */
export function generateSigningKey(kid: string = randomToken(8)): SigningKey {
  return signingKeyFromSeed(ed.utils.randomSecretKey(), kid);
}

/** The signing key of a 32-byte Ed25519 seed, e.g. one loaded from configuration. */
export function signingKeyFromSeed(seed: Uint8Array, kid: string): SigningKey {
  if (seed.length !== 32) throw new RangeError("signing key: the Ed25519 seed is 32 bytes");
  if (kid.length === 0) throw new RangeError("signing key: kid is empty");
  useNobleSha512();
  return { kid, privateKey: Uint8Array.from(seed), publicKey: ed.getPublicKey(seed) };
}

/**
 * noble's synchronous API needs a SHA-512 to be plugged in; its README names
 * @noble/hashes. Done on first use rather than at import, so importing stays
 * free of side effects, and never over one already set.
 */
export function useNobleSha512(): void {
  if (ed.hashes.sha512 === undefined) ed.hashes.sha512 = sha512;
}

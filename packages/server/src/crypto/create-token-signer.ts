/*
 * The server's token-signer factory. It imports the node:crypto backend; where
 * `node:` is absent, use createJwtSigner with nobleEd25519 instead.
 */
import { CryptoBackend } from "./crypto-backend.js";
import type { Ed25519Backend } from "./ed25519-backend.js";
import { createJwtSigner } from "./jwt-signer.js";
import { nobleEd25519 } from "./noble-ed25519.js";
import { nodeEd25519 } from "./node-ed25519.js";
import { generateSigningKey, type SigningKey } from "./signing-key.js";
import type { TokenSigner } from "../ports/token-signer.js";

const BACKENDS: Record<CryptoBackend, Ed25519Backend> = { node: nodeEd25519, noble: nobleEd25519 };

export interface TokenSignerOptions {
  /** The keys: the first signs, any verifies. Default: one new random key. */
  keys?: readonly SigningKey[];
  /** Default `node`. */
  backend?: CryptoBackend;
  /** Verified tokens remembered (LRU); default 10,000; 0 turns the cache off. */
  cacheSize?: number;
}

/**
 * The server's TokenSigner. Both backends take the same keys and make the
 * same tokens: a token signed by one verifies with the other.
 *
 * @example
 * const signer = createTokenSigner({ keys: [current, previous] });
 * const jwks = signer.jwks(); // served at /.well-known/jwks.json
 */
export function createTokenSigner(options: TokenSignerOptions = {}): TokenSigner {
  return createJwtSigner({
    keys: options.keys ?? [generateSigningKey()],
    ed25519: BACKENDS[options.backend ?? CryptoBackend.Node],
    cacheSize: options.cacheSize,
  });
}

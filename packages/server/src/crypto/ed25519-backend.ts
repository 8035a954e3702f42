import type { SigningKey } from "./signing-key.js";

/**
 * Ed25519Backend is an implementation of Ed25519 signatures the token signer
 * can run on: `node:crypto` in Node, @noble/ed25519 anywhere. All backends
 * take the same keys and make the same (deterministic) signatures.
 */
export interface Ed25519Backend {
  readonly name: string;
  /** Prepares a key once (parsing, caching key objects) for many calls. */
  bind(key: SigningKey): BoundEd25519Key;
}

/** One key, prepared by a backend. */
export interface BoundEd25519Key {
  /** The 64-byte signature of `data`. */
  sign(data: Uint8Array): Promise<Uint8Array>;
  /** Whether `signature` is this key's signature of `data`; false (never a throw) for any malformed input. */
  verify(signature: Uint8Array, data: Uint8Array): Promise<boolean>;
}

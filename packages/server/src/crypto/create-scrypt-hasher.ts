/*
 * The server's password-hasher factory. It imports the node:crypto scrypt;
 * where `node:` is absent, use createScryptHasherWith(nobleScrypt).
 */
import { CryptoBackend } from "./crypto-backend.js";
import { nobleScrypt } from "./noble-scrypt.js";
import { nodeScrypt } from "./node-scrypt.js";
import { createScryptHasherWith, type PasswordHasher, type ScryptKdf } from "./password-hasher.js";
import type { ScryptCost } from "./scrypt-encoding.js";

export { DEFAULT_SCRYPT_COST, FAST_TEST_COST, type ScryptCost } from "./scrypt-encoding.js";

const BACKENDS: Record<CryptoBackend, ScryptKdf> = { node: nodeScrypt, noble: nobleScrypt };

export interface ScryptHasherOptions {
  /** Default `node`. */
  backend?: CryptoBackend;
  /** Cost of new hashes: default DEFAULT_SCRYPT_COST; FAST_TEST_COST in test suites. */
  cost?: ScryptCost;
}

/**
 * The server's scrypt PasswordHasher. Both backends make interchangeable
 * hashes.
 *
 * @example
 * const hasher = createScryptHasher({ cost: FAST_TEST_COST }); // in tests
 */
export function createScryptHasher(options: ScryptHasherOptions = {}): PasswordHasher {
  return createScryptHasherWith(BACKENDS[options.backend ?? CryptoBackend.Node], { cost: options.cost });
}

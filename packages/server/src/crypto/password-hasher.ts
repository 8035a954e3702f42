/*
 * Password hashing with scrypt over a pluggable implementation. Pure:
 * create-scrypt-hasher.ts picks node:crypto or @noble/hashes.
 */
import type { PasswordHasher } from "../ports/password-hasher.js";
import { utf8 } from "./base64url.js";
import { DEFAULT_SCRYPT_COST, KEY_BYTES, SALT_BYTES, decodeScryptHash, encodeScryptHash, isValidScryptCost, type ScryptCost } from "./scrypt-encoding.js";

export type { PasswordHasher };

/**
 * ScryptKdf is an implementation of scrypt (RFC 7914) and of a
 * constant-time comparison. Implementations agree byte for byte.
 */
export interface ScryptKdf {
  readonly name: string;
  derive(password: Uint8Array, salt: Uint8Array, cost: ScryptCost, keyLength: number): Promise<Uint8Array>;
  /** Whether two byte arrays are equal, in a time that does not depend on where they differ. */
  equal(a: Uint8Array, b: Uint8Array): boolean;
}

export interface ScryptHasherWithOptions {
  /** Cost of new hashes; default {@link DEFAULT_SCRYPT_COST}. */
  cost?: ScryptCost;
}

/** A PasswordHasher on the given scrypt implementation. */
export function createScryptHasherWith(kdf: ScryptKdf, options: ScryptHasherWithOptions = {}): PasswordHasher {
  const cost = { ...(options.cost ?? DEFAULT_SCRYPT_COST) };
  if (!isValidScryptCost(cost)) throw new RangeError("scrypt cost: N a power of two up to 2^20, r 1-32, p 1-16, at most 256 MiB");
  return {
    async hash(password) {
      const salt = globalThis.crypto.getRandomValues(new Uint8Array(SALT_BYTES));
      const key = await kdf.derive(passwordBytes(password), salt, cost, KEY_BYTES);
      return encodeScryptHash({ cost, salt, key });
    },
    async verify(password, encoded) {
      const stored = decodeScryptHash(encoded);
      if (stored === undefined) return false;
      const key = await kdf.derive(passwordBytes(password), stored.salt, stored.cost, stored.key.length);
      return kdf.equal(key, stored.key);
    },
    needsRehash: (encoded) => needsRehash(encoded, cost),
  };
}

/** Whether a stored hash was made at another cost than `cost` (rehash it at the next sign-in), or is unreadable. */
export function needsRehash(encoded: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): boolean {
  const stored = decodeScryptHash(encoded);
  return stored === undefined || stored.cost.N !== cost.N || stored.cost.r !== cost.r || stored.cost.p !== cost.p;
}

/** UTF-8 of the NFC form, so the same password typed on any keyboard hashes alike. */
function passwordBytes(password: string): Uint8Array {
  return utf8(password.normalize("NFC"));
}

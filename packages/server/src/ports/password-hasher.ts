/*
 * The password-hashing port. The default is scrypt (crypto/create-scrypt-hasher.ts)
 * at a cost strong enough for production.
 */

/**
 * PasswordHasher turns passwords into stored hashes and checks passwords
 * against them. The stored form is self-describing.
 *
 * @example
 * const stored = await hasher.hash("correct horse");
 * await hasher.verify("correct horse", stored); // true
 */
export interface PasswordHasher {
  /** A salted hash of the password, in its stored form. */
  hash(password: string): Promise<string>;
  /** Whether the password is the one `encoded` was made from; false for a malformed `encoded`. */
  verify(password: string, encoded: string): Promise<boolean>;
  /** Whether `encoded` was made at another cost than new hashes get: sign-in then stores a new hash. Absent: never. */
  needsRehash?(encoded: string): boolean;
}

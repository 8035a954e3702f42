/*
 * scrypt on @noble/hashes: pure JS, for browsers and workers. Its async form
 * yields to the event loop every few milliseconds.
 */
import { scryptAsync } from "@noble/hashes/scrypt.js";
import { constantTimeEqual } from "./constant-time.js";
import type { ScryptKdf } from "./password-hasher.js";

/** The @noble/hashes scrypt. */
export const nobleScrypt: ScryptKdf = {
  name: "noble",
  derive: (password, salt, { N, r, p }, keyLength) => scryptAsync(password, salt, { N, r, p, dkLen: keyLength }),
  equal: constantTimeEqual,
};

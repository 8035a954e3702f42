/*
 * scrypt on node:crypto: runs on libuv's thread pool, so hashing never holds
 * the event loop. Kept apart so other crypto files load without `node:`.
 */
import { scrypt, timingSafeEqual } from "node:crypto";
import type { ScryptKdf } from "./password-hasher.js";

/** The node:crypto scrypt. */
export const nodeScrypt: ScryptKdf = {
  name: "node",
  derive(password, salt, { N, r, p }, keyLength) {
    // OpenSSL refuses more than `maxmem` (32 MiB by default, which N=2^15,
    // r=8 just exceeds); allow what the cost needs plus slack.
    const maxmem = 128 * N * r * 2 + 1024 * 1024;
    return new Promise((resolve, reject) => {
      scrypt(password, salt, keyLength, { N, r, p, maxmem }, (error, key) => {
        if (error) reject(error);
        else resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength));
      });
    });
  },
  equal: (a, b) => a.length === b.length && timingSafeEqual(a, b),
};

/*
 * Opaque random secrets (refresh tokens, one-time codes, ids) and the digest
 * they are stored under. Pure: Web Crypto's getRandomValues and
 * @noble/hashes run in Node, browsers and workers alike.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { encodeBase64url, utf8 } from "./base64url.js";

/**
 * A random base64url string of `bytes` random bytes (default 32, 256 bits:
 * a refresh token). 16 bytes give a 22-character id.
 *
 * @example
 * const refreshToken = randomToken();
 * const sessionId = randomToken(16);
 */
export function randomToken(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > 65536) throw new RangeError("randomToken: 1 to 65536 bytes");
  return encodeBase64url(randomBytes(bytes));
}

/** Random bytes of an id: 16 characters. */
const ID_BYTES = 12;

/**
 * A new id: `prefix`, `_` and 12 random bytes in base64url (`txn_3kq…`), made
 * as one flat string (a row keeps its id for as long as it is stored).
 */
export function randomId(prefix: string): string {
  return encodeBase64url(randomBytes(ID_BYTES), `${prefix}_`);
}

/** Bytes drawn from Web Crypto at a time (as Node's randomUUID keeps a batch). */
const POOL_BYTES = 4096;
let pool = new Uint8Array(0);
let poolUsed = 0;

/**
 * `count` fresh random bytes, each handed out once. Served from a batch
 * drawn ahead: getRandomValues has a fixed cost per call that was ~5 % of a
 * purchase's CPU (three ids), and one call now serves ~300 ids.
 */
function randomBytes(count: number): Uint8Array {
  if (count > POOL_BYTES) return globalThis.crypto.getRandomValues(new Uint8Array(count));
  if (poolUsed + count > pool.length) {
    pool = globalThis.crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    poolUsed = 0;
  }
  const bytes = pool.subarray(poolUsed, poolUsed + count);
  poolUsed += count;
  return bytes;
}

/**
 * The SHA-256 of a token's UTF-8 text, in lowercase hex: what storage keeps
 * instead of the token, so a leaked table does not leak live tokens. Tokens
 * are random, so no salt or slow hash is needed.
 */
export function hashToken(token: string): string {
  return bytesToHex(sha256(utf8(token)));
}

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
  return encodeBase64url(globalThis.crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * The SHA-256 of a token's UTF-8 text, in lowercase hex: what storage keeps
 * instead of the token, so a leaked table does not leak live tokens. Tokens
 * are random, so no salt or slow hash is needed.
 */
export function hashToken(token: string): string {
  return bytesToHex(sha256(utf8(token)));
}

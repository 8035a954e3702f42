/*
 * PKCE S256 (RFC 7636), used by the handoff codes between web hosts. Pure:
 * @noble/hashes computes SHA-256 in browsers, workers and Node alike.
 */
import { sha256 } from "@noble/hashes/sha2.js";

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/**
 * Whether a string is a code verifier: 43 to 128 characters of
 * `A-Z a-z 0-9 - . _ ~`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.1
 */
export function isValidVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/**
 * Whether a string has the form of an S256 code challenge: 43 base64url
 * characters (a SHA-256 digest, no padding).
 */
export function isValidChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

/**
 * The S256 challenge of a verifier: `BASE64URL(SHA256(ASCII(verifier)))`
 * without padding. The verifier is taken as given; check it first with
 * {@link isValidVerifier}.
 *
 * @example
 * s256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"); // "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.2
 */
export function s256Challenge(verifier: string): string {
  return base64url(sha256(new TextEncoder().encode(verifier)));
}

/**
 * Whether a verifier is valid and its S256 challenge is `challenge`. The
 * comparison takes the same time wherever the strings differ.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636#section-4.6
 */
export function verifyS256(verifier: string, challenge: string): boolean {
  if (!isValidVerifier(verifier) || !isValidChallenge(challenge)) return false;
  return constantTimeEqual(s256Challenge(verifier), challenge);
}

/** Compares two strings of equal length without stopping at the first difference. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function base64url(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i]!, b1 = bytes[i + 1], b2 = bytes[i + 2];
    out += BASE64URL[b0 >> 2]! + BASE64URL[((b0 & 3) << 4) | ((b1 ?? 0) >> 4)]!;
    if (b1 !== undefined) out += BASE64URL[((b1 & 15) << 2) | ((b2 ?? 0) >> 6)]!;
    if (b2 !== undefined) out += BASE64URL[b2 & 63]!;
  }
  return out;
}

/*
 * The stored form of a scrypt password hash: `scrypt$N$r$p$salt$hash`
 * (salt and hash base64url). It names its own cost, so the cost can be
 * raised later and older hashes still verify.
 */
import { decodeBase64url, encodeBase64url } from "./base64url.js";

/** scrypt's cost parameters (RFC 7914): N (a power of two), r, p. */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * The cost of every mode but `test`: N=2^17, r=8, p=1, OWASP's recommendation
 * (128 MiB, most of a second of one core a hash; docs/identity.md has the figure).
 * Hashes stored at an older cost are rehashed at the next sign-in.
 */
export const DEFAULT_SCRYPT_COST: ScryptCost = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });

/** A low cost for test suites (1 MiB, ~1-3 ms a hash). Never in production. */
export const FAST_TEST_COST: ScryptCost = Object.freeze({ N: 2 ** 10, r: 8, p: 1 });

export const SALT_BYTES = 16;
export const KEY_BYTES = 32;

/** A parsed stored hash. */
export interface ScryptHash {
  cost: ScryptCost;
  salt: Uint8Array;
  key: Uint8Array;
}

const PREFIX = "scrypt";
/** Bounds on what a stored hash may ask for, so a bad record cannot exhaust memory or time. */
const MAX_MEMORY_BYTES = 256 * 1024 * 1024;

/** Whether a cost is usable: N a power of two from 2 to 2^20, r 1-32, p 1-16, at most 256 MiB. */
export function isValidScryptCost(cost: ScryptCost): boolean {
  const { N, r, p } = cost;
  return Number.isInteger(N) && N >= 2 && N <= 2 ** 20 && (N & (N - 1)) === 0
    && Number.isInteger(r) && r >= 1 && r <= 32
    && Number.isInteger(p) && p >= 1 && p <= 16
    && 128 * N * r <= MAX_MEMORY_BYTES;
}

/** The stored text of a hash. */
export function encodeScryptHash(hash: ScryptHash): string {
  const { N, r, p } = hash.cost;
  return [PREFIX, N, r, p, encodeBase64url(hash.salt), encodeBase64url(hash.key)].join("$");
}

/** The parts of a stored hash, or undefined when it is not one this module wrote. */
export function decodeScryptHash(encoded: string): ScryptHash | undefined {
  if (typeof encoded !== "string") return undefined;
  const parts = encoded.split("$");
  if (parts.length !== 6 || parts[0] !== PREFIX) return undefined;
  const [N, r, p] = parts.slice(1, 4).map((part) => (/^[1-9][0-9]{0,8}$/.test(part) ? Number(part) : NaN)) as [number, number, number];
  const cost = { N, r, p };
  if (!isValidScryptCost(cost)) return undefined;
  const salt = decodeBase64url(parts[4]!), key = decodeBase64url(parts[5]!);
  if (salt === undefined || salt.length < 8 || salt.length > 64) return undefined;
  if (key === undefined || key.length < 16 || key.length > 64) return undefined;
  return { cost, salt, key };
}

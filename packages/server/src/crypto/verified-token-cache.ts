import type { TokenClaims } from "@playfield/core";

/**
 * VerifiedTokenCache remembers the claims of tokens whose signature has been
 * checked, so that a token presented again skips the signature check. It is
 * a least-recently-used map of at most `capacity` tokens.
 */
export interface VerifiedTokenCache {
  get(token: string): TokenClaims | undefined;
  set(token: string, claims: TokenClaims): void;
  delete(token: string): void;
  readonly size: number;
}

/** A VerifiedTokenCache of at most `capacity` tokens (0 caches nothing). */
export function createVerifiedTokenCache(capacity: number): VerifiedTokenCache {
  if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError("cacheSize: a whole number, 0 or more");
  // A Map iterates in insertion order: re-inserting on a hit keeps the
  // least recently used entry first, where eviction takes it.
  const entries = new Map<string, TokenClaims>();
  return {
    get(token) {
      const claims = entries.get(token);
      if (claims !== undefined) {
        entries.delete(token);
        entries.set(token, claims);
      }
      return claims;
    },
    set(token, claims) {
      if (capacity === 0) return;
      entries.delete(token);
      entries.set(token, claims);
      if (entries.size > capacity) entries.delete(entries.keys().next().value!);
    },
    delete(token) {
      entries.delete(token);
    },
    get size() {
      return entries.size;
    },
  };
}

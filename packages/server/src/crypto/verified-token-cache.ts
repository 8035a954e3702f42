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

/**
 * Characters of a token's end that key its entry. Each call brings its token
 * as a new string, which a Map would hash whole (about 4 000 instructions
 * for a 330-character token, the most of a cache hit); the end of the
 * signature is as unpredictable as the whole and hashes in a few dozen. The
 * entry keeps its token, and a lookup compares it whole.
 */
const KEY_CHARS = 16;

interface Entry {
  token: string;
  claims: TokenClaims;
}

const keyOf = (token: string) => (token.length <= KEY_CHARS ? token : token.slice(token.length - KEY_CHARS));

/** A VerifiedTokenCache of at most `capacity` tokens (0 caches nothing). */
export function createVerifiedTokenCache(capacity: number): VerifiedTokenCache {
  if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError("cacheSize: a whole number, 0 or more");
  // A Map iterates in insertion order: re-inserting on a hit keeps the
  // least recently used entry first, where eviction takes it. Two tokens
  // ending alike (only tokens this server signed get in, so hardly ever)
  // share a key: the later one takes the entry, the other is verified again.
  const entries = new Map<string, Entry>();
  return {
    get(token) {
      const key = keyOf(token);
      const entry = entries.get(key);
      if (entry === undefined || entry.token !== token) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.claims;
    },
    set(token, claims) {
      if (capacity === 0) return;
      const key = keyOf(token);
      entries.delete(key);
      entries.set(key, { token, claims });
      if (entries.size > capacity) entries.delete(entries.keys().next().value!);
    },
    delete(token) {
      const key = keyOf(token);
      if (entries.get(key)?.token === token) entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}

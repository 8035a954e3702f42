import { randomId, randomToken } from "../crypto/random-token.js";

/** Makes ids and opaque secrets. Replaceable so tests can make them predictable. */
export interface IdGenerator {
  /** A new unique id, e.g. `usr_3kq…`. */
  id(prefix: string): string;
  /** A secret of 32 random bytes, base64url (refresh tokens, handoff codes). */
  secret(): string;
  /** A number of `digits` digits (guest names). */
  digits(count: number): string;
}

/** Random ids and secrets from Web Crypto. */
export function createRandomIds(): IdGenerator {
  return {
    id: (prefix) => randomId(prefix),
    secret: () => randomToken(32),
    digits: (count) => {
      const bytes = globalThis.crypto.getRandomValues(new Uint8Array(count));
      return Array.from(bytes, (b) => String(b % 10)).join("");
    },
  };
}

/**
 * Predictable ids for tests that compare whole answers: `usr_1`, `usr_2`, …
 * Secrets stay random: a predictable refresh token is a bug even in a test.
 */
export function createSequentialIds(): IdGenerator {
  const counters = new Map<string, number>();
  let digits = 0;
  return {
    id: (prefix) => {
      const next = (counters.get(prefix) ?? 0) + 1;
      counters.set(prefix, next);
      return `${prefix}_${next}`;
    },
    secret: () => randomToken(32),
    digits: (count) => String(++digits).padStart(count, "0").slice(-count),
  };
}

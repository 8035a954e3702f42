/*
 * Password hashing as a bounded resource. A hash at the production cost
 * takes 128 MiB and most of a second of one core: a flood of sign-ups or
 * sign-ins would otherwise queue without end, each waiting caller holding
 * its request open, and memory would grow with the queue. At most
 * `concurrency` hashes run at once; at most `queue` more calls wait; a call
 * past both is refused at once with `unavailable`, so it can come back
 * later instead of waiting seconds for an answer.
 */
import { Code, PlayfieldError } from "@playfield/core";
import type { PasswordHasher } from "../ports/password-hasher.js";

/** How many hashes run at once, and how many calls may wait for one. */
export interface HashingLimits {
  concurrency: number;
  queue: number;
}

/** Two at once (the cores of a small machine), and two waiting for each: a call waits at most about two hash times. */
export const DEFAULT_HASHING_LIMITS: Readonly<HashingLimits> = Object.freeze({ concurrency: 2, queue: 4 });

/** Admission to password hashing. */
export interface HashingGate {
  /** Runs `work` (which hashes through the gated hasher), or refuses at once with `unavailable` when the queue is full. */
  admit<T>(work: () => Promise<T>): Promise<T>;
}

/** The limits a server runs with: `null` bounds nothing; unset is the default, except in the "test" environment (test suites hash in bursts). */
export function resolveHashingLimits(option: Partial<HashingLimits> | null | undefined, environment: string): HashingLimits | null {
  if (option === null || (option === undefined && environment === "test")) return null;
  const limits = { ...DEFAULT_HASHING_LIMITS, ...option };
  if (!Number.isSafeInteger(limits.concurrency) || limits.concurrency < 1) throw new TypeError(`passwordHashing.concurrency: a positive integer, got ${limits.concurrency}`);
  if (!Number.isSafeInteger(limits.queue) || limits.queue < 0) throw new TypeError(`passwordHashing.queue: a whole number, got ${limits.queue}`);
  return limits;
}

/**
 * `hasher` running at most `limits.concurrency` hashes at once, and the gate
 * that admits calls to it. Work that bypasses the gate (a test kit's seeds)
 * still takes its turn at the hasher.
 */
export function gateHasher(hasher: PasswordHasher, limits: HashingLimits | null): { hasher: PasswordHasher; gate: HashingGate } {
  if (!limits) return { hasher, gate: { admit: (work) => work() } };
  let running = 0;
  const waiting: (() => void)[] = [];
  const turn = async <T>(hash: () => Promise<T>): Promise<T> => {
    if (running >= limits.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await hash();
    } finally {
      // The slot passes straight to the next waiter, so `running` never dips below a queue.
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
  let admitted = 0;
  return {
    hasher: {
      hash: (password) => turn(() => hasher.hash(password)),
      verify: (password, encoded) => turn(() => hasher.verify(password, encoded)),
      ...(hasher.needsRehash ? { needsRehash: hasher.needsRehash.bind(hasher) } : {}),
    },
    gate: {
      async admit(work) {
        if (admitted >= limits.concurrency + limits.queue) throw new PlayfieldError(Code.Unavailable, "password hashing is busy: try again in a few seconds");
        admitted += 1;
        try {
          return await work();
        } finally {
          admitted -= 1;
        }
      },
    },
  };
}

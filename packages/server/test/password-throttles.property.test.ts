import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Code } from "@playfield/core";
import { createMovableClock } from "@playfield/server-memory";
import { testServer, type TestServer } from "./fixtures.js";
import { clientFrom, recordingHasher, type Check } from "./password-fixtures.js";
import { propertyRuns } from "./property-runs.js";
import { leaseStorage } from "./storage-under-test.js";
import { twoServers } from "./two-servers.js";

/*
 * The password throttles under any interleaving of wrong passwords from any
 * set of addresses, sign-ins and re-checks with a stolen token, sent in
 * batches at once with time passing between them: every check counted
 * against its budget's window, no budget ever checks more than its limit in
 * a window, and the owner, from an address that never failed, signs in at
 * once or after at most the longest delay. On memory, PGlite and PostgreSQL
 * (vitest.workspace.ts), in process, and across two servers on one storage.
 */

const pair = { limit: 3, windowMs: 60_000 };
const signInThrottle = {
  perUsernameAndAddress: pair,
  perUsername: { limit: 7, windowMs: 60_000, firstDelayMs: 1000, maxDelayMs: 4000 },
  perAddress: { limit: 50, windowMs: 60_000 },
};
const password = "the owner's own password";
const ownerAddress = "198.51.100.4";

interface Attempt {
  address: number;
  kind: "signIn" | "recheck";
}
interface Batch {
  advanceMs: number;
  attempts: Attempt[];
}

const arbBatches = fc.array(fc.record({
  advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 30_000 })),
  attempts: fc.array(fc.record({ address: fc.nat(4), kind: fc.constantFrom("signIn" as const, "recheck" as const) }), { minLength: 1, maxLength: 5 }),
}), { minLength: 1, maxLength: 8 });

/** The most checks any one fixed window of `rule` holds, replaying the checks in order as the server counts them. */
function mostInAWindow(checks: Check[], windowMs: number): number {
  let most = 0, start = -Infinity, inWindow = 0;
  for (const { at } of [...checks].sort((a, b) => a.at - b.at)) {
    if (at - start >= windowMs) {
      start = at;
      inWindow = 0;
    }
    most = Math.max(most, ++inWindow);
  }
  return most;
}

/** Plays `batches` of wrong passwords against the owner's account through `servers` (taking turns), then checks every rule. */
async function play(servers: TestServer[], hasher: ReturnType<typeof recordingHasher>, batches: Batch[], advance: (ms: number) => void): Promise<void> {
  const owner = await servers[0]!.server.seed.user({ username: "ada_prop", password });
  let n = 0;
  for (const batch of batches) {
    advance(batch.advanceMs);
    const answers = await Promise.all(batch.attempts.map(({ address, kind }) => {
      const t = servers[n % servers.length]!;
      const guess = `${kind} from ${address} #${n++}`;
      const identity = clientFrom(t, "in-process", `203.0.113.${address + 1}`).identity;
      const call = kind === "signIn"
        ? identity.signIn({ username: "ada_prop", password: guess })
        : identity.changeUsername({ newUsername: "thief_name", password: guess }, { token: owner.accessToken });
      return call.then(() => "ok", (error: { code: string }) => error.code);
    }));
    // A guess is checked and told wrong, or refused unchecked: never let in, never another error.
    for (const answer of answers) expect([Code.Unauthenticated, Code.PermissionDenied, Code.ResourceExhausted]).toContain(answer);
  }
  const guesses = hasher.checks.filter((check) => check.password !== password);
  for (let address = 0; address < 5; address++) {
    const fromThere = guesses.filter((check) => check.password.includes(` from ${address} #`));
    expect(mostInAWindow(fromThere, pair.windowMs)).toBeLessThanOrEqual(pair.limit);
  }
  expect(mostInAWindow(guesses.filter((check) => check.password.startsWith("recheck")), pair.windowMs)).toBeLessThanOrEqual(pair.limit);

  // The owner, from an address with no failures: in at once, or after the delay it is told (at most the longest).
  const ownerClient = clientFrom(servers[0]!, "in-process", ownerAddress).identity;
  const first = await ownerClient.signIn({ username: "ada_prop", password }).then(() => null, (error: { code: string; rawMessage: string }) => error);
  if (first) {
    expect(first.code).toBe(Code.ResourceExhausted);
    const seconds = Number(/try again in (\d+) s/.exec(first.rawMessage)?.[1]);
    expect(seconds).toBeLessThanOrEqual(signInThrottle.perUsername.maxDelayMs / 1000);
    advance(seconds * 1000);
    await expect(ownerClient.signIn({ username: "ada_prop", password })).resolves.toBeTruthy();
  }
}

describe("password throttles under any interleaving of failures", () => {
  it("should check no budget past its limit per window, and let the owner in from a clean address", async () => {
    await fc.assert(fc.asyncProperty(arbBatches, async (batches) => {
      const clock = createMovableClock();
      clock.freeze();
      const hasher = recordingHasher(clock);
      await using t = await testServer("in-process", { hasher, clock, signInThrottle });
      await play([t], hasher, batches, (ms) => clock.advance(ms));
    }), propertyRuns("PLAYFIELD_THROTTLE_RUNS", { memory: 25, database: 4 }));
  });

  it("should hold the same across two servers on one storage", async () => {
    await fc.assert(fc.asyncProperty(arbBatches, async (batches) => {
      // twoServers makes the clock both read: the hasher reads it through this one, set once it exists.
      let now = () => 0;
      const hasher = recordingHasher({ now: () => now() });
      const lease = await leaseStorage();
      await using _release = { [Symbol.asyncDispose]: async () => lease.release() };
      const w = await twoServers([lease.storage, lease.storage], { hasher, signInThrottle });
      now = () => w.clock.now();
      await play(w.servers, hasher, batches, (ms) => w.clock.advance(ms));
    }), propertyRuns("PLAYFIELD_THROTTLE_RUNS", { memory: 25, database: 4 }));
  });
});

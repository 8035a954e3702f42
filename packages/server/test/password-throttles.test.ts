import { describe, expect, it } from "vitest";
import { Code, tables } from "@playfield/core";
import { createScryptHasher, DEFAULT_ACCOUNT_CREATION_LIMIT, FAST_TEST_COST } from "@playfield/server";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { clientFrom, LOOPBACK_PROXIES, recordingHasher } from "./password-fixtures.js";

/*
 * The password throttles, tried as an attacker would (docs/identity.md,
 * "Password throttling" and "Account creation"): guesses from one address
 * do not lock the owner out, a stolen token does not guess the password, an
 * unknown name answers in the time of a known one, and account creation and
 * hashing are bounded.
 */

const password = "correct horse battery";
const attackerAddress = "203.0.113.7";
const ownerAddress = "198.51.100.4";
const fromProxy = { trustedProxies: LOOPBACK_PROXIES };

/** The code a call failed with, or "ok". */
function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(() => "ok", (error: { code?: string }) => error.code ?? String(error));
}

function count(codes: string[], code: string): number {
  return codes.filter((c) => c === code).length;
}

describe.each(TRANSPORTS)("password throttles (%s)", (kind) => {
  describe("sign-in", () => {
    it("should leave the owner able to sign in from another address after 8 failures from one", async () => {
      await using t = await testServer(kind, fromProxy);
      const ada = await t.server.seed.user({ username: "ada_owner", password });
      const attacker = clientFrom(t, kind, attackerAddress);
      const codes: string[] = [];
      for (let i = 0; i < 8; i++) codes.push(await outcome(attacker.identity.signIn({ username: "ada_owner", password: `guess number ${i}` })));
      expect(codes).toEqual([...Array<string>(5).fill(Code.Unauthenticated), ...Array<string>(3).fill(Code.ResourceExhausted)]);
      const owner = await clientFrom(t, kind, ownerAddress).identity.signIn({ username: "ada_owner", password });
      expect(owner.me.user.id).toBe(ada.userId);
      // The guessing address stays refused, even with the right password: guessing there gains nothing.
      await expectError(attacker.identity.signIn({ username: "ada_owner", password }), Code.ResourceExhausted, /try again in \d+ s/);
    });

    it("should budget an unknown username like a known one, so the refusal tells nothing", async () => {
      await using t = await testServer(kind, fromProxy);
      await t.server.seed.user({ username: "ada_owner", password });
      const attacker = clientFrom(t, kind, attackerAddress).identity;
      for (const username of ["ada_owner", "nobody_here"]) {
        const codes: string[] = [];
        for (let i = 0; i < 6; i++) codes.push(await outcome(attacker.signIn({ username, password: `guess number ${i}` })));
        expect(codes).toEqual([...Array<string>(5).fill(Code.Unauthenticated), Code.ResourceExhausted]);
      }
    });

    it("should slow, not stop, a username failing from many addresses: the owner waits a second, not the window", async () => {
      const perUsername = { limit: 6, windowMs: 15 * 60_000, firstDelayMs: 1000, maxDelayMs: 8000 };
      await using t = await testServer(kind, { ...fromProxy, signInThrottle: { perUsername } });
      t.server.clock.freeze();
      await t.server.seed.user({ username: "ada_owner", password });
      for (let i = 0; i < 6; i++) {
        await expectError(clientFrom(t, kind, `203.0.113.${i + 1}`).identity.signIn({ username: "ada_owner", password: "a wrong guess" }), Code.Unauthenticated);
      }
      const owner = clientFrom(t, kind, ownerAddress);
      await expectError(owner.identity.signIn({ username: "ada_owner", password }), Code.ResourceExhausted, /try again in 1 s/);
      t.server.clock.advance(1000);
      await expect(owner.identity.signIn({ username: "ada_owner", password })).resolves.toBeTruthy();
      // Each further failure makes the next attempt wait twice as long, up to the cap.
      const waits: string[] = [];
      for (let i = 0; i < 4; i++) {
        t.server.clock.advance(perUsername.maxDelayMs);
        await expectError(clientFrom(t, kind, `203.0.113.${50 + i}`).identity.signIn({ username: "ada_owner", password: "a wrong guess" }), Code.Unauthenticated);
        const refused = await expectError(owner.identity.signIn({ username: "ada_owner", password }), Code.ResourceExhausted);
        waits.push(/try again in (\d+) s/.exec(refused.rawMessage)![1]!);
      }
      expect(waits).toEqual(["2", "4", "8", "8"]);
    });
  });

  describe("password re-checks", () => {
    it("should check only 5 of 15 wrong passwords sent with a stolen token, refuse the 16th right one, and let the owner sign in elsewhere", async () => {
      const hasher = recordingHasher(null);
      await using t = await testServer(kind, { ...fromProxy, hasher });
      const ada = await t.server.seed.user({ username: "ada_owner", password });
      const thief = clientFrom(t, kind, attackerAddress);
      const codes: string[] = [];
      for (let i = 0; i < 15; i++) {
        codes.push(await outcome(thief.identity.changePassword({ currentPassword: `guess number ${i}`, newPassword: "the thief's own one" }, { token: ada.accessToken })));
      }
      expect(count(codes, Code.PermissionDenied)).toBe(5);
      expect(count(codes, Code.ResourceExhausted)).toBe(10);
      expect(hasher.checks.filter((check) => check.password.startsWith("guess number"))).toHaveLength(5);
      await expectError(thief.identity.changePassword({ currentPassword: password, newPassword: "the thief's own one" }, { token: ada.accessToken }), Code.ResourceExhausted);
      // Moving to another address gains the token no guesses: the account's own budget is spent.
      await expectError(clientFrom(t, kind, "192.0.2.77").identity.changePassword({ currentPassword: password, newPassword: "the thief's own one" }, { token: ada.accessToken }), Code.ResourceExhausted);
      const owner = await clientFrom(t, kind, ownerAddress).identity.signIn({ username: "ada_owner", password });
      expect(owner.me.user.id).toBe(ada.userId);
    });

    it("should count ChangeUsername, DeleteAccount and ChangePassword in one budget, and refuse each past it", async () => {
      await using t = await testServer(kind, fromProxy);
      const ada = await t.server.seed.user({ username: "ada_owner", password });
      const thief = clientFrom(t, kind, attackerAddress).identity;
      const token = { token: ada.accessToken };
      for (let i = 0; i < 3; i++) await expectError(thief.changeUsername({ newUsername: "thief_name", password: `guess ${i} wrong` }, token), Code.PermissionDenied);
      for (let i = 0; i < 2; i++) await expectError(thief.deleteAccount({ password: `guess ${i} wrong` }, token), Code.PermissionDenied);
      await expectError(thief.changeUsername({ newUsername: "thief_name", password }, token), Code.ResourceExhausted, /too many wrong passwords/);
      await expectError(thief.deleteAccount({ password }, token), Code.ResourceExhausted);
      await expectError(thief.changePassword({ currentPassword: password, newPassword: "the thief's own one" }, token), Code.ResourceExhausted);
    });

    it("should forget an owner's typos once the right password is given", async () => {
      await using t = await testServer(kind, fromProxy);
      const ada = await t.server.seed.user({ username: "ada_owner", password });
      const me = clientFrom(t, kind, ownerAddress).identity;
      const token = { token: ada.accessToken };
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 4; i++) await expectError(me.changeUsername({ newUsername: `ada_new_${round}`, password: "a typo of it" }, token), Code.PermissionDenied);
        await expect(me.changeUsername({ newUsername: `ada_new_${round}`, password }, token)).resolves.toBeTruthy();
      }
    });
  });

  it("should take an unknown username at least half the time of a known one", async () => {
    // A cost where a hash takes long enough to measure (16 MiB, tens of ms), far from the fast test cost.
    const hasher = createScryptHasher({ cost: { N: 2 ** 14, r: 8, p: 1 } });
    // A budget that lets every sample be checked.
    await using t = await testServer(kind, { hasher, signInThrottle: { perUsernameAndAddress: { limit: 100, windowMs: 60_000 } } });
    await t.server.seed.user({ username: "ada_known", password });
    const c = t.client();
    const timed = async (username: string) => {
      const start = performance.now();
      await expectError(c.identity.signIn({ username, password: "not the password" }), Code.Unauthenticated);
      return performance.now() - start;
    };
    await timed("nobody_at_all");
    const known: number[] = [], unknown: number[] = [];
    for (let i = 0; i < 6; i++) {
      known.push(await timed("ada_known"));
      unknown.push(await timed(`nobody_${i}`));
    }
    // The fastest of each: other work on the machine only ever adds time, so the minimum is the call's own cost.
    expect(Math.min(...unknown), `unknown ${unknown.map(Math.round).join(", ")} ms; known ${known.map(Math.round).join(", ")} ms`)
      .toBeGreaterThanOrEqual(Math.min(...known) / 2);
  });

  it("should store a hash of an older cost again at the new cost when its owner signs in", async () => {
    const newCost = { N: 2 ** 11, r: 8, p: 1 };
    await using t = await testServer(kind, { hasher: createScryptHasher({ cost: newCost }) });
    const ada = await t.server.seed.user({ username: "ada_old_hash", password });
    const oldHash = await createScryptHasher({ cost: FAST_TEST_COST }).hash(password);
    await t.server.deps.storage.transact(async (tx) => {
      const row = (await tx.get(tables.users, ada.userId))!;
      await tx.put(tables.users, { ...row, passwordHash: oldHash });
    });
    await t.client().identity.signIn({ username: "ada_old_hash", password });
    const stored = await t.server.deps.storage.transact((tx) => tx.get(tables.users, ada.userId));
    expect(stored!.passwordHash).toMatch(/^scrypt\$2048\$8\$1\$/);
    await expect(t.client().identity.signIn({ username: "ada_old_hash", password })).resolves.toBeTruthy();
  });

  describe("account creation", () => {
    // The production defaults, with a fast hash and no hashing bound, so that only the creation limit is tried.
    const production = { ...fromProxy, environment: "production" as const, hasher: createScryptHasher({ cost: FAST_TEST_COST }), passwordHashing: null };
    const signUp = (username: string) => ({ username, password, birthdate: "1990-05-17" });

    it(`should serve at most ${DEFAULT_ACCOUNT_CREATION_LIMIT} of 40 sign-ups sent at once from one address, and still serve another address`, async () => {
      await using t = await testServer(kind, production);
      const flood = clientFrom(t, kind, attackerAddress);
      const codes = await Promise.all(Array.from({ length: 40 }, (_, i) => outcome(flood.identity.signUp(signUp(`mass_${i}`)))));
      expect(count(codes, "ok")).toBe(DEFAULT_ACCOUNT_CREATION_LIMIT);
      expect(count(codes, Code.ResourceExhausted)).toBe(40 - DEFAULT_ACCOUNT_CREATION_LIMIT);
      // Guests are accounts too.
      await expectError(flood.identity.startGuest({}), Code.ResourceExhausted, /accounts created from this address/);
      await expect(clientFrom(t, kind, ownerAddress).identity.signUp(signUp("ada_elsewhere"))).resolves.toBeTruthy();
      t.server.clock.advance(60 * 60_000);
      await expect(flood.identity.startGuest({})).resolves.toBeTruthy();
    });

    it("should count a sign-up whose name is taken: what is bounded is the hashing a caller asks for", async () => {
      await using t = await testServer(kind, { ...production, accountCreationLimit: 2 });
      const one = clientFrom(t, kind, attackerAddress).identity;
      await one.signUp(signUp("ada_taken"));
      await expectError(one.signUp(signUp("ada_taken")), Code.AlreadyExists);
      await expectError(one.signUp(signUp("bob_free")), Code.ResourceExhausted);
      if (kind === "in-process") {
        // A call with no client address (server.fetch in a test) is not limited.
        for (let i = 0; i < 3; i++) await t.client().identity.startGuest({});
      }
    });

    it("should create without limit when the limit is 0, as test suites and load benches do", async () => {
      await using t = await testServer(kind, { ...production, accountCreationLimit: 0 });
      const one = clientFrom(t, kind, attackerAddress);
      const codes = await Promise.all(Array.from({ length: 40 }, (_, i) => outcome(i % 2 ? one.identity.startGuest({}) : one.identity.signUp(signUp(`mass_${i}`)))));
      expect(count(codes, "ok")).toBe(40);
    });
  });

  it("should refuse a password check at once with unavailable when the hashing queue is full, and count nothing for it", async () => {
    let release!: () => void;
    const hasher = recordingHasher(null, { held: new Promise<void>((resolve) => { release = resolve; }) });
    await using t = await testServer(kind, { ...fromProxy, hasher, passwordHashing: { concurrency: 1, queue: 1 } });
    await t.server.seed.user({ username: "ada_busy", password });
    const inFlight = [1, 2].map((i) => clientFrom(t, kind, `10.0.0.${i}`).identity.signIn({ username: "ada_busy", password }));
    // One check runs (held) and one waits: the queue is full.
    await expect.poll(() => hasher.checks.length).toBe(1);
    const late = clientFrom(t, kind, "10.0.0.3");
    // With the checks held, an answer at all means it did not wait for them.
    await expectError(late.identity.signIn({ username: "ada_busy", password }), Code.Unavailable, /password hashing is busy/);
    await expectError(late.identity.signUp({ username: "ada_later", password, birthdate: "1990-05-17" }), Code.Unavailable);
    // The test kit's seeds wait their turn at the hasher, never refused.
    const seeded = t.server.seed.user();
    release();
    for (const auth of await Promise.all(inFlight)) expect(auth.accessToken).toBeTruthy();
    await expect(seeded).resolves.toBeTruthy();
    const stored = await t.server.deps.storage.transact((tx) => tx.get(tables.throttles, "signin:addr:10.0.0.3"));
    expect(stored).toBeUndefined();
    await expect(late.identity.signIn({ username: "ada_busy", password })).resolves.toBeTruthy();
  });
});

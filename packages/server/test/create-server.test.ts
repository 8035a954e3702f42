import { describe, expect, it } from "vitest";
import { createMemoryStorage, createServer, DEFAULT_ACCOUNT_CREATION_LIMIT, DEFAULT_HASHING_LIMITS, DEFAULT_SCRYPT_COST, DEFAULT_SIGN_IN_THROTTLE } from "../src/index.js";
import { needsRehash } from "../src/crypto/password-hasher.js";

describe("createServer defaults (those of production)", () => {
  const server = createServer({ storage: createMemoryStorage(), onInternalError: () => {} });

  it("should run in the production environment, answers not re-validated, chat rate on", () => {
    expect(server.deps.config.environment).toBe("production");
    expect(server.deps.config.validateResponses).toBe(false);
    expect(server.deps.config.chatRate).not.toBeNull();
  });

  it("should hash passwords at the full scrypt cost", async () => {
    const stored = await server.deps.hasher.hash("a long password");
    expect(needsRehash(stored, DEFAULT_SCRYPT_COST)).toBe(false);
  }, 20_000);

  it("should bound account creation and password hashing, and budget guesses per username and address", () => {
    expect(server.deps.config.accountCreationLimit).toBe(DEFAULT_ACCOUNT_CREATION_LIMIT);
    expect(server.deps.config.passwordHashing).toEqual(DEFAULT_HASHING_LIMITS);
    expect(server.deps.config.signInThrottle).toEqual(DEFAULT_SIGN_IN_THROTTLE);
    for (const environment of ["development", "production"] as const) {
      const config = createServer({ storage: createMemoryStorage(), environment }).deps.config;
      expect(config.accountCreationLimit).toBe(30);
      expect(config.passwordHashing).toEqual({ concurrency: 2, queue: 4 });
    }
    // Test suites and load benches create thousands of accounts from one address, in bursts.
    const test = createServer({ storage: createMemoryStorage(), environment: "test" }).deps.config;
    expect(test.accountCreationLimit).toBe(0);
    expect(test.passwordHashing).toBeNull();
  });

  it("should refuse a limit that is not a whole number, naming the option", () => {
    expect(() => createServer({ storage: createMemoryStorage(), accountCreationLimit: -1 })).toThrow(/accountCreationLimit/);
    expect(() => createServer({ storage: createMemoryStorage(), passwordHashing: { concurrency: 0 } })).toThrow(/passwordHashing.concurrency/);
  });

  it("should make random ids, not a sequence", () => {
    const ids = [server.deps.ids.id("usr"), server.deps.ids.id("usr")];
    expect(ids[0]).not.toBe("usr_1");
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("should keep the sandbox checkout and the unguarded reports page off", async () => {
    expect(server.deps.payments.find((p) => p.id === "sandbox")!.unavailableReason(server.deps)).not.toBeNull();
    const page = await server.fetch("http://playfield.test/admin/reports");
    expect(page.status).not.toBe(200);
  });

  it("should follow the wall clock", () => {
    expect(Math.abs(server.clock.now() - Date.now())).toBeLessThan(1000);
  });
});

import fc from "fast-check";
import { isIP } from "node:net";
import { describe, expect, it } from "vitest";
import { parseServerArgs, UsageError } from "../src/server-args.js";

/*
 * The command line's values, any string at all: each is taken as documented
 * or refused with a UsageError that names its flag (the process exits 2
 * with it), never a crash, and never a message that shows a URL's password.
 */

const DATABASE = ["--database-url", "postgres://h/db"];

/** What parsing answers: the result, or the refusal's message (any other throw fails the property). */
function outcome(argv: string[]): { ok: ReturnType<typeof parseServerArgs> } | { refused: string } {
  try {
    return { ok: parseServerArgs(argv, {}) };
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return { refused: (error as Error).message };
  }
}

/** Any string, written as the next argument or after `=`. */
const value = fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.constantFrom("", "-", "--", "-1", "--help", " 10.0.0.1", "1e3", "NaN", "Infinity", "0x10", "3600.0000001", "redis://", "rediss://u:p@h:6379/0"));
const spelled = (flag: string, text: string) => fc.constantFrom<string[]>([flag, text], [`${flag}=${text}`]);

describe("playfield-server's flag values (property)", () => {
  it("--trusted-proxy: an IP address is kept as written; anything else is refused naming the flag", () => {
    fc.assert(fc.property(value.chain((text) => spelled("--trusted-proxy", text).map((argv) => ({ text, argv }))), ({ text, argv }) => {
      const answer = outcome(argv);
      if ("ok" in answer) {
        expect(isIP(text)).not.toBe(0);
        expect(answer.ok.trustedProxies).toEqual([text]);
      } else {
        expect(answer.refused).toMatch(/--trusted-proxy/);
      }
    }), { numRuns: 500 });
  });

  it("--shutdown-timeout: a number of seconds from 0 to 3600 is kept in ms; anything else is refused naming the flag", () => {
    fc.assert(fc.property(fc.oneof(value, fc.double().map(String), fc.nat(5000).map(String)).chain((text) => spelled("--shutdown-timeout", text)), (argv) => {
      const answer = outcome(argv);
      if ("ok" in answer) {
        expect(Number.isFinite(answer.ok.shutdownTimeoutMs)).toBe(true);
        expect(answer.ok.shutdownTimeoutMs).toBeGreaterThanOrEqual(0);
        expect(answer.ok.shutdownTimeoutMs).toBeLessThanOrEqual(3_600_000);
      } else {
        expect(answer.refused).toMatch(/--shutdown-timeout/);
      }
    }), { numRuns: 500 });
  });

  it("--database-pool-size: a whole number of 1 or more is kept as the pool's size; anything else is refused naming the flag", () => {
    fc.assert(fc.property(fc.oneof(value, fc.integer({ min: -5, max: 500 }).map(String)).chain((text) => spelled("--database-pool-size", text).map((argv) => ({ text, argv: [...DATABASE, ...argv] }))), ({ text, argv }) => {
      const answer = outcome(argv);
      if ("ok" in answer) {
        expect(text).toMatch(/^\d+$/);
        expect(answer.ok.storage).toMatchObject({ poolSize: Number(text) });
        expect(Number(text)).toBeGreaterThanOrEqual(1);
      } else {
        expect(answer.refused).toMatch(/--database-pool-size/);
      }
    }), { numRuns: 500 });
  });

  it("--redis-url: a redis:// or rediss:// URL is kept as written; anything else is refused naming the flag", () => {
    const url = fc.oneof(value, fc.webUrl().map((u) => u.replace(/^https?:/, "redis:")), fc.webUrl());
    fc.assert(fc.property(url.chain((text) => spelled("--redis-url", text).map((argv) => ({ text, argv: [...DATABASE, ...argv] }))), ({ text, argv }) => {
      const answer = outcome(argv);
      if ("ok" in answer) {
        expect(["redis:", "rediss:"]).toContain(new URL(text).protocol);
        expect(answer.ok.redis).toEqual({ url: text, keyPrefix: "playfield:" });
      } else {
        expect(answer.refused).toMatch(/--redis-url/);
      }
    }), { numRuns: 500 });
  });

  it("should never show a URL's password in a refusal, whatever characters it holds", () => {
    const password = fc.string({ minLength: 6, maxLength: 20 }).filter((p) => /^[^\s/?#]+$/.test(p) && !p.includes("***"));
    const flag = fc.constantFrom("--redis-url", "--database-url");
    fc.assert(fc.property(flag, fc.constantFrom("http", "mysql", "redis", "postgres"), password, (name, scheme, secret) => {
      const text = `${scheme}://admin:${secret}@db.internal:1234/x`;
      const answer = outcome(name === "--redis-url" ? [...DATABASE, name, text] : [name, text, "--redis-url", "http://r"]);
      if ("refused" in answer) expect(answer.refused).not.toContain(secret);
    }), { numRuns: 500 });
  });
});

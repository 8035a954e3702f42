import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ageBandOf, AgeBand, parseBirthdate } from "../src/domain/age-band.js";
import { passwordProblem, USERNAME_PATTERN, usernameKey } from "../src/domain/account-rules.js";
import { isThrottled, recordFailure, retryAfterSeconds } from "../src/domain/throttle.js";
import { isExpired, mintClaims } from "../src/domain/token-claims.js";

const day = (text: string) => new Date(`${text}T12:00:00Z`);

describe("ageBandOf", () => {
  it("should turn 13 and 18 on the birthday itself", () => {
    expect(ageBandOf("2000-06-15", day("2013-06-14"))).toBe(AgeBand.Under13);
    expect(ageBandOf("2000-06-15", day("2013-06-15"))).toBe(AgeBand.From13To17);
    expect(ageBandOf("2000-06-15", day("2018-06-14"))).toBe(AgeBand.From13To17);
    expect(ageBandOf("2000-06-15", day("2018-06-15"))).toBe(AgeBand.Adult);
  });

  it("should treat guests (no birthdate) as under 13 and unreadable dates as unspecified", () => {
    expect(ageBandOf(null, day("2026-01-01"))).toBe(AgeBand.Under13);
    expect(ageBandOf("2001-02-29", day("2026-01-01"))).toBe(AgeBand.Unspecified);
  });

  it("should never go down as time passes", () => {
    const order: AgeBand[] = [AgeBand.Under13, AgeBand.From13To17, AgeBand.Adult];
    fc.assert(fc.property(fc.date({ min: new Date("1900-01-01"), max: new Date("2025-12-31"), noInvalidDate: true }), fc.nat(100 * 365), fc.nat(365), (born, after, more) => {
      const birthdate = born.toISOString().slice(0, 10);
      const a = ageBandOf(birthdate, new Date(born.getTime() + after * 86_400_000));
      const b = ageBandOf(birthdate, new Date(born.getTime() + (after + more) * 86_400_000));
      expect(order.indexOf(b)).toBeGreaterThanOrEqual(order.indexOf(a));
    }));
  });
});

describe("parseBirthdate", () => {
  it("should accept real dates only", () => {
    expect(parseBirthdate("2024-02-29")).toEqual({ year: 2024, month: 2, day: 29 });
    for (const bad of ["2023-02-29", "2024-13-01", "2024-00-10", "24-01-01", "2024-1-1", ""]) expect(parseBirthdate(bad)).toBeNull();
  });
});

describe("username rules", () => {
  it("should allow 3 to 20 letters, digits or _, not at either end", () => {
    for (const ok of ["ada", "Ada_L", "a_b", "x".repeat(20), "007"]) expect(USERNAME_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ["ab", "_ada", "ada_", "x".repeat(21), "ada l", "adá", "ada-l"]) expect(USERNAME_PATTERN.test(bad), bad).toBe(false);
  });

  it("should compare names ignoring case", () => {
    fc.assert(fc.property(fc.stringMatching(/^[A-Za-z0-9_]{3,20}$/), (name) => {
      expect(usernameKey(name.toUpperCase())).toBe(usernameKey(name.toLowerCase()));
    }));
  });
});

describe("passwordProblem", () => {
  it("should refuse lengths outside 8 to 200 and the username in any case", () => {
    expect(passwordProblem("short", "ada")).toMatch(/8 to 200/);
    expect(passwordProblem("x".repeat(201), "ada")).toMatch(/8 to 200/);
    expect(passwordProblem("Ada_Lovelace", "ada_lovelace")).toMatch(/username/);
    expect(passwordProblem("analytical engine", "ada")).toBeNull();
  });
});

describe("throttle", () => {
  const rule = { limit: 3, windowMs: 60_000 };

  it("should refuse after the limit within the window, and forget after it", () => {
    let state = undefined as ReturnType<typeof recordFailure> | undefined;
    for (let i = 0; i < 3; i++) {
      expect(isThrottled(state, rule, 1000 + i)).toBe(false);
      state = recordFailure(state, rule, 1000 + i);
    }
    expect(isThrottled(state, rule, 1003)).toBe(true);
    expect(retryAfterSeconds(state!, rule, 1003)).toBe(60);
    expect(isThrottled(state, rule, 61_000)).toBe(false);
    expect(recordFailure(state, rule, 61_000)).toEqual({ failures: 1, windowStart: 61_000 });
  });
});

describe("token claims", () => {
  it("should expire exactly at exp", () => {
    const claims = mintClaims({ sub: "u", sid: "d", typ: "access" }, 10_000, 60);
    expect(claims).toMatchObject({ iat: 10, exp: 70 });
    expect(isExpired(claims, 69_999)).toBe(false);
    expect(isExpired(claims, 70_000)).toBe(true);
  });
});

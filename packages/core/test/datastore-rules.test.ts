import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mergeTopLevel, isJsonObject } from "../src/domain/json-merge.js";
import { nextVersion, setMayWrite } from "../src/domain/datastore-version.js";
import { sessionAuthority, writeRefusal } from "../src/domain/datastore-authority.js";
import {
  budgetWindowStart, DEFAULT_DATASTORE_LIMITS, fitsStoredBytes, requestBudget, storedBytesCap, utf8Length,
} from "../src/domain/datastore-budget.js";
import { addToOrdered, compareOrdered } from "../src/domain/ordered-store.js";

const jsonValue = fc.jsonValue();
const jsonObject = fc.dictionary(fc.string({ maxLength: 6 }), jsonValue, { maxKeys: 6 });

describe("mergeTopLevel", () => {
  it("should replace top-level fields, remove nulls and start from {} for a missing entry", () => {
    expect(mergeTopLevel({ a: 1, b: { x: 1 }, c: 3 }, { b: { y: 2 }, c: null, d: [1] })).toEqual({ a: 1, b: { y: 2 }, d: [1] });
    expect(mergeTopLevel(undefined, { a: 1, b: null })).toEqual({ a: 1 });
  });

  it("should treat a field named __proto__ as a plain field", () => {
    const patch = JSON.parse("{\"__proto__\":{\"admin\":true},\"a\":1}") as Record<string, unknown>;
    const merged = mergeTopLevel({ b: 2 }, patch);
    expect(JSON.parse(JSON.stringify(merged))).toEqual(JSON.parse("{\"b\":2,\"__proto__\":{\"admin\":true},\"a\":1}"));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(JSON.stringify(mergeTopLevel(merged, JSON.parse("{\"__proto__\":null}") as Record<string, unknown>))).toBe("{\"b\":2,\"a\":1}");
  });

  it("should give every patched field the patch's value and keep every other stored field", () => {
    fc.assert(fc.property(jsonObject, jsonObject, (stored, patch) => {
      const merged = mergeTopLevel(stored, patch);
      for (const field of Object.keys(patch)) {
        if (patch[field] === null) expect(Object.hasOwn(merged, field)).toBe(false);
        else expect(merged[field]).toEqual(patch[field]);
      }
      for (const field of Object.keys(stored)) {
        if (!Object.hasOwn(patch, field)) expect(merged[field]).toEqual(stored[field]);
      }
      expect(Object.keys(merged).every((f) => Object.hasOwn(stored, f) || Object.hasOwn(patch, f))).toBe(true);
    }));
  });

  it("should be idempotent and leave both inputs unchanged", () => {
    fc.assert(fc.property(jsonObject, jsonObject, (stored, patch) => {
      const before = structuredClone([stored, patch]);
      const once = mergeTopLevel(stored, patch);
      expect(mergeTopLevel(once, patch)).toEqual(once);
      expect([stored, patch]).toEqual(before);
    }));
  });
});

describe("isJsonObject", () => {
  it("should accept objects only", () => {
    expect(isJsonObject({})).toBe(true);
    for (const value of [null, [], 1, "x", true]) expect(isJsonObject(value)).toBe(false);
  });
});

describe("setMayWrite", () => {
  it("should always write without ifVersion and only at the expected version with it", () => {
    expect(setMayWrite(undefined, false, 7)).toBe(true);
    expect(setMayWrite(3, false, 0)).toBe(true);
    expect(setMayWrite(undefined, true, 0)).toBe(true);
    expect(setMayWrite(undefined, true, 1)).toBe(false);
    expect(setMayWrite(3, true, 3)).toBe(true);
    expect(setMayWrite(3, true, 0)).toBe(false);
    expect(setMayWrite(3, true, 2)).toBe(false);
  });
});

describe("nextVersion", () => {
  it("should raise the version by one, and start a deleted key above its last version", () => {
    expect(nextVersion(undefined, 0)).toBe(1);
    expect(nextVersion(4, 0)).toBe(5);
    expect(nextVersion(undefined, 9)).toBe(10);
  });

  it("should never give a version twice along any sequence of writes and deletes", () => {
    fc.assert(fc.property(fc.array(fc.boolean(), { maxLength: 60 }), (writes) => {
      let current: number | undefined;
      let floor = 0;
      const seen = new Set<number>();
      for (const write of writes) {
        if (write) {
          current = nextVersion(current, floor);
          expect(seen.has(current)).toBe(false);
          seen.add(current);
        } else if (current !== undefined) {
          floor = current;
          current = undefined;
        }
      }
    }));
  });
});

describe("sessionAuthority", () => {
  it("should be the peer host while a member, else the earliest member", () => {
    expect(sessionAuthority({ hostingTier: "peer", hostUserId: "b" }, ["a", "b"])).toBe("b");
    expect(sessionAuthority({ hostingTier: "peer", hostUserId: "z" }, ["a", "b"])).toBe("a");
    expect(sessionAuthority({ hostingTier: "solo", hostUserId: null }, ["s"])).toBe("s");
    expect(sessionAuthority({ hostingTier: "dedicated", hostUserId: null }, ["c", "a"])).toBe("c");
    expect(sessionAuthority({ hostingTier: "edge", hostUserId: "a" }, ["c", "a"])).toBe("c");
    expect(sessionAuthority(undefined, ["c", "a"])).toBe("c");
    expect(sessionAuthority(undefined, [])).toBeNull();
  });

  it("should always be a member when there is one", () => {
    const tiers = fc.constantFrom("solo", "peer", "edge", "dedicated") as fc.Arbitrary<"solo" | "peer" | "edge" | "dedicated">;
    fc.assert(fc.property(tiers, fc.option(fc.string()), fc.uniqueArray(fc.string(), { minLength: 1 }), (hostingTier, hostUserId, members) => {
      expect(members).toContain(sessionAuthority({ hostingTier, hostUserId }, members));
    }));
  });
});

describe("writeRefusal", () => {
  const members = ["auth", "p", "q"];
  const player = { userId: "p", isAuthority: false, members };
  const authority = { userId: "auth", isAuthority: true, members };

  it("should let a player write their own user scope and ordered key, and nothing else", () => {
    expect(writeRefusal(player, { kind: "user", userId: "p" })).toBeNull();
    expect(writeRefusal(player, { kind: "ordered", key: "p" })).toBeNull();
    expect(writeRefusal(player, { kind: "user", userId: "q" })).toMatch(/^userId: /);
    expect(writeRefusal(player, { kind: "global" })).toMatch(/^scope: /);
    expect(writeRefusal(player, { kind: "ordered", key: "team-red" })).toMatch(/^key: /);
  });

  it("should let the authority write members' user scope, global and any ordered key, not a non-member's data", () => {
    expect(writeRefusal(authority, { kind: "user", userId: "q" })).toBeNull();
    expect(writeRefusal(authority, { kind: "global" })).toBeNull();
    expect(writeRefusal(authority, { kind: "ordered", key: "team-red" })).toBeNull();
    expect(writeRefusal(authority, { kind: "user", userId: "stranger" })).toMatch(/not in this session/);
  });
});

describe("requestBudget and storedBytesCap", () => {
  it("should follow DESIGN.md: 300 + 40 × players a minute, 500 MB + 1 MB × players seen", () => {
    expect(requestBudget(DEFAULT_DATASTORE_LIMITS, 0)).toBe(300);
    expect(requestBudget(DEFAULT_DATASTORE_LIMITS, 10)).toBe(700);
    expect(storedBytesCap(DEFAULT_DATASTORE_LIMITS, 0)).toBe(500 * 1024 * 1024);
    expect(storedBytesCap(DEFAULT_DATASTORE_LIMITS, 3)).toBe(503 * 1024 * 1024);
  });

  it("should never shrink as players come", () => {
    fc.assert(fc.property(fc.nat(10_000), fc.nat(100), (players, more) => {
      expect(requestBudget(DEFAULT_DATASTORE_LIMITS, players + more)).toBeGreaterThanOrEqual(requestBudget(DEFAULT_DATASTORE_LIMITS, players));
      expect(storedBytesCap(DEFAULT_DATASTORE_LIMITS, players + more)).toBeGreaterThanOrEqual(storedBytesCap(DEFAULT_DATASTORE_LIMITS, players));
    }));
  });
});

describe("budgetWindowStart", () => {
  it("should give the minute a time falls in", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 45 }), (now) => {
      const start = budgetWindowStart(now);
      expect(start % 60_000).toBe(0);
      expect(now - start).toBeGreaterThanOrEqual(0);
      expect(now - start).toBeLessThan(60_000);
    }));
  });
});

describe("fitsStoredBytes", () => {
  it("should refuse growth past the cap and always allow shrinking", () => {
    expect(fitsStoredBytes(90, 10, 100)).toBe(true);
    expect(fitsStoredBytes(90, 11, 100)).toBe(false);
    expect(fitsStoredBytes(500, -1, 100)).toBe(true);
  });
});

describe("utf8Length", () => {
  it("should equal the length of the UTF-8 encoding", () => {
    const encoder = new TextEncoder();
    // One, two, three and four bytes, and lone surrogates (encoded as U+FFFD).
    const units = fc.constantFrom("a", "~", "é", "ß", "€", "中", "😀", "\ud800", "\udc00", "\uffff");
    fc.assert(fc.property(fc.array(units, { maxLength: 30 }), (parts) => {
      const text = parts.join("");
      expect(utf8Length(text)).toBe(encoder.encode(text).length);
    }));
  });
});

describe("compareOrdered", () => {
  it("should order by value (descending unless ascending), equal values by key ascending", () => {
    const rows = [{ key: "b", value: 5 }, { key: "a", value: 5 }, { key: "c", value: 9 }, { key: "d", value: -1 }];
    expect([...rows].sort((x, y) => compareOrdered(x, y, false)).map((r) => r.key)).toEqual(["c", "a", "b", "d"]);
    expect([...rows].sort((x, y) => compareOrdered(x, y, true)).map((r) => r.key)).toEqual(["d", "a", "b", "c"]);
  });
});

describe("addToOrdered", () => {
  it("should add within the safe integer range and refuse to leave it", () => {
    expect(addToOrdered(5, -7)).toBe(-2);
    expect(addToOrdered(Number.MAX_SAFE_INTEGER, 1)).toBeNull();
    expect(addToOrdered(Number.MIN_SAFE_INTEGER, -1)).toBeNull();
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contentUrlFor } from "../src/domain/cook-target.js";
import { compareEngineVersions, missingEngineVersion, parseEngineVersion } from "../src/domain/engine-version.js";
import { joinRefusal, type MemberStance } from "../src/domain/join-permission.js";
import { chooseSession, compareCandidates, type SessionCandidate } from "../src/domain/matchmaking.js";
import { byJoinOrder, hostAfterChange, type RosterEntry } from "../src/domain/session-host.js";

const version = fc.array(fc.nat(999), { minLength: 1, maxLength: 4 }).map((parts) => parts.join("."));

describe("compareEngineVersions", () => {
  it("should compare part by part as numbers, missing parts as 0, ignoring a suffix", () => {
    expect(compareEngineVersions("1.10", "1.9")).toBeGreaterThan(0);
    expect(compareEngineVersions("2", "2.0.0")).toBe(0);
    expect(compareEngineVersions("2.1.0-beta", "2.1")).toBe(0);
    expect(compareEngineVersions("1.2.3", "1.2.4")).toBeLessThan(0);
    expect(parseEngineVersion("v1.2")).toBeNull();
  });

  it("should be a total order: antisymmetric and transitive", () => {
    fc.assert(fc.property(version, version, version, (a, b, c) => {
      expect(Math.sign(compareEngineVersions(a, b))).toBe(-Math.sign(compareEngineVersions(b, a)));
      if (compareEngineVersions(a, b) <= 0 && compareEngineVersions(b, c) <= 0) expect(compareEngineVersions(a, c)).toBeLessThanOrEqual(0);
    }));
  });
});

describe("missingEngineVersion", () => {
  it("should name the platform's minimum when the engine is below it or unreadable, and nothing otherwise", () => {
    expect(missingEngineVersion({ web: "2.1" }, "web", "2.0.9")).toBe("2.1");
    expect(missingEngineVersion({ web: "2.1" }, "web", "")).toBe("2.1");
    expect(missingEngineVersion({ web: "2.1" }, "web", "2.1")).toBeNull();
    expect(missingEngineVersion({ web: "2.1" }, "ios", "")).toBeNull();
  });

  it("should accept exactly the versions at or above the minimum", () => {
    fc.assert(fc.property(version, version, (min, have) => {
      const missing = missingEngineVersion({ web: min }, "web", have);
      expect(missing === null).toBe(compareEngineVersions(have, min) >= 0);
    }));
  });
});

describe("contentUrlFor", () => {
  const urls = { web: "W", desktop: "D", mobile_low: "ML" };
  it("should pick the platform's best cook target present, then web", () => {
    expect(contentUrlFor(urls, "windows")).toBe("D");
    expect(contentUrlFor(urls, "ios")).toBe("ML");
    expect(contentUrlFor({ ...urls, mobile_high: "MH" }, "android")).toBe("MH");
    expect(contentUrlFor(urls, "switch")).toBe("W");
    expect(contentUrlFor({ desktop: "D" }, "web")).toBe("");
    expect(contentUrlFor({ ...urls, switch: "S" }, "switch")).toBe("S");
  });
});

const roster = fc.uniqueArray(fc.record({ userId: fc.string({ minLength: 1, maxLength: 4 }), joinedAt: fc.nat(100) }), { selector: (m) => m.userId, maxLength: 8 });

describe("hostAfterChange", () => {
  it("should keep a present host and otherwise pick the earliest member, for peer sessions only", () => {
    fc.assert(fc.property(roster, fc.option(fc.string({ maxLength: 4 })), (members: RosterEntry[], host) => {
      const next = hostAfterChange("peer", host, members);
      if (members.length === 0) expect(next).toBeNull();
      else if (host !== null && members.some((m) => m.userId === host)) expect(next).toBe(host);
      else expect(next).toBe([...members].sort(byJoinOrder)[0]!.userId);
      expect(hostAfterChange("dedicated", host, members)).toBeNull();
    }));
  });
});

const stance = fc.record({
  userId: fc.string(), whoCanJoin: fc.constantFrom("everyone", "friends", "nobody") as fc.Arbitrary<MemberStance["whoCanJoin"]>,
  isFriend: fc.boolean(), blocked: fc.boolean(),
});

describe("joinRefusal", () => {
  it("should let someone follow in only when every member allows them and no block stands", () => {
    fc.assert(fc.property(fc.array(stance, { maxLength: 6 }), (members) => {
      const allowed = members.every((m) => !m.blocked && (m.whoCanJoin === "everyone" || (m.whoCanJoin === "friends" && m.isFriend)));
      expect(joinRefusal(members, "follow") === null).toBe(allowed);
    }));
  });

  it("should check blocks alone for matchmaking", () => {
    fc.assert(fc.property(fc.array(stance, { maxLength: 6 }), (members) => {
      expect(joinRefusal(members, "matchmake") === null).toBe(members.every((m) => !m.blocked));
    }));
  });
});

const candidate = fc.record({
  id: fc.string({ minLength: 1, maxLength: 6 }), memberCount: fc.nat(10), maxPlayers: fc.integer({ min: 1, max: 10 }),
  friendCount: fc.nat(3), createdAt: fc.nat(1000),
});

describe("chooseSession", () => {
  it("should pick a session with room, with friends if any has them, and the fullest among those", () => {
    fc.assert(fc.property(fc.array(candidate, { maxLength: 10 }), (candidates: SessionCandidate[]) => {
      const open = candidates.filter((c) => c.memberCount < c.maxPlayers);
      const chosen = chooseSession(candidates);
      if (open.length === 0) {
        expect(chosen).toBeNull();
        return;
      }
      expect(chosen).not.toBeNull();
      const pool = open.some((c) => c.friendCount > 0) ? open.filter((c) => c.friendCount > 0) : open;
      expect(pool).toContain(chosen);
      expect(chosen!.memberCount).toBe(Math.max(...pool.map((c) => c.memberCount)));
      for (const c of open) expect(compareCandidates(chosen!, c)).toBeLessThanOrEqual(0);
    }));
  });

  it("should break a tie by age", () => {
    const old = { id: "b", memberCount: 2, maxPlayers: 4, friendCount: 0, createdAt: 1 };
    const young = { id: "a", memberCount: 2, maxPlayers: 4, friendCount: 0, createdAt: 2 };
    expect(chooseSession([young, old])).toBe(old);
  });
});

import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  applyFriendMove, avatarProblem, bioProblem, compareMatches, countMutual, displayNameProblem, FriendMove, groupNameProblem,
  matchName, mayFileReport, mayLeaveGroup, mayRequestFriendship, mirror, nameSuffixes, normalizeName, normalizeQuery,
  proportionFactor, relationshipOf, REPORT_RATE, roleOfRank, searchTermsOf, SearchTier, type PairFacts,
} from "../src/index.js";

const facts = fc.record({ friends: fc.boolean(), sent: fc.boolean(), received: fc.boolean() })
  .filter((f) => !(f.friends && (f.sent || f.received)) && !(f.sent && f.received));
const moves = fc.constantFrom(...Object.values(FriendMove));

describe("relationshipOf", () => {
  it("should name each state, with self first", () => {
    expect(relationshipOf({ friends: true, sent: false, received: false })).toBe("friends");
    expect(relationshipOf({ friends: false, sent: true, received: false })).toBe("request_sent");
    expect(relationshipOf({ friends: false, sent: false, received: true })).toBe("request_received");
    expect(relationshipOf({ friends: false, sent: false, received: false })).toBe("none");
    expect(relationshipOf({ friends: true, sent: false, received: false }, true)).toBe("self");
  });
});

describe("applyFriendMove", () => {
  it("should accept when sending to someone who already asked", () => {
    const result = applyFriendMove(FriendMove.Send, { friends: false, sent: false, received: true });
    expect(result).toEqual({ ok: true, next: { friends: true, sent: false, received: false }, opensRequest: false });
  });

  it("should refuse accepting with no incoming request, and open a request only from none", () => {
    expect(applyFriendMove(FriendMove.Accept, { friends: false, sent: true, received: false }).ok).toBe(false);
    expect(applyFriendMove(FriendMove.Send, { friends: false, sent: false, received: false })).toMatchObject({ opensRequest: true });
  });

  it("should keep the states valid and the two sides' views mirrored, for any move from any valid state", () => {
    fc.assert(fc.property(facts, moves, fc.boolean(), (before, move, fromOtherSide) => {
      const start: PairFacts = fromOtherSide ? mirror(before) : before;
      const result = applyFriendMove(move, start);
      if (!result.ok) return;
      const next = result.next;
      expect(next.friends && (next.sent || next.received)).toBe(false);
      expect(next.sent && next.received).toBe(false);
      const mine = relationshipOf(next), theirs = relationshipOf(mirror(next));
      const expected = { none: "none", friends: "friends", request_sent: "request_received", request_received: "request_sent" } as const;
      expect(theirs).toBe(expected[mine as keyof typeof expected]);
    }));
  });

  it("should make decline and remove idempotent", () => {
    fc.assert(fc.property(facts, fc.constantFrom(FriendMove.Decline, FriendMove.Remove), (before, move) => {
      const once = applyFriendMove(move, before);
      const twice = once.ok ? applyFriendMove(move, once.next) : once;
      expect(twice).toEqual(once);
    }));
  });
});

describe("mayRequestFriendship", () => {
  it("should let everyone, friends of friends only, or nobody send", () => {
    expect(mayRequestFriendship("everyone", 0)).toBe(true);
    expect(mayRequestFriendship("friends", 0)).toBe(false);
    expect(mayRequestFriendship("friends", 2)).toBe(true);
    expect(mayRequestFriendship("nobody", 5)).toBe(false);
  });

  it("should count mutual friends symmetrically", () => {
    fc.assert(fc.property(fc.uniqueArray(fc.nat(20)), fc.uniqueArray(fc.nat(20)), (a, b) => {
      const as = a.map(String), bs = b.map(String);
      expect(countMutual(as, bs)).toBe(countMutual(bs, as));
      expect(countMutual(as, bs)).toBe(as.filter((x) => bs.includes(x)).length);
    }));
  });
});

describe("roleOfRank", () => {
  it("should map 255 to Owner, 200-254 to Admin, 1-199 to Member and anything else to null", () => {
    expect([255, 254, 200, 199, 1, 0, 256, 1.5].map(roleOfRank)).toEqual(["Owner", "Admin", "Admin", "Member", "Member", null, null, null]);
  });

  it("should keep an owner in while others remain", () => {
    expect(mayLeaveGroup(255, 2)).toBe(false);
    expect(mayLeaveGroup(255, 1)).toBe(true);
    expect(mayLeaveGroup(1, 5)).toBe(true);
  });
});

describe("matchName", () => {
  it("should rank exact, prefix, word start and substring matches in that order", () => {
    expect(matchName("sam", "sam", [])?.tier).toBe(SearchTier.Exact);
    expect(matchName("sam", "samwise", [])?.tier).toBe(SearchTier.Prefix);
    expect(matchName("sam", "gardener", ["Sam Gamgee"])).toEqual({ tier: SearchTier.Word, text: "sam" });
    expect(matchName("sam", "xsamx", [])).toEqual({ tier: SearchTier.Substring, text: "samx" });
    expect(matchName("sam", "bob", ["Bobby"])).toBeNull();
  });

  it("should match every name that holds the query, and only those or their display words", () => {
    const name = fc.stringMatching(/^[a-z0-9_]{3,12}$/);
    fc.assert(fc.property(name, fc.stringMatching(/^[a-z0-9]{2,4}$/), (key, query) => {
      const match = matchName(query, key, []);
      expect(match !== null).toBe(key.includes(query));
    }));
  });

  it("should find each match's text among the indexed terms (or the key itself)", () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z0-9_]{3,12}$/), fc.string({ maxLength: 12 }), fc.stringMatching(/^[a-z0-9 ]{1,4}$/), (key, display, raw) => {
      const query = normalizeQuery(raw);
      const match = matchName(query, key, [display]);
      if (!match) return;
      const terms = searchTermsOf(key, [display]);
      if (match.tier === SearchTier.Word) expect(terms).toContainEqual({ tag: "w", term: match.text });
      if (match.tier === SearchTier.Substring) expect(terms).toContainEqual({ tag: "s", term: match.text });
      if (match.tier <= SearchTier.Prefix) expect(match.text).toBe(key);
    }));
  });

  it("should order matches by tier, text, then id", () => {
    const a = { tier: SearchTier.Prefix, text: "zed", id: "2" } as const;
    const b = { tier: SearchTier.Word, text: "abc", id: "1" } as const;
    expect(compareMatches(a, b)).toBeLessThan(0);
    expect(compareMatches({ ...b, id: "0" }, b)).toBeLessThan(0);
    expect(nameSuffixes("abc")).toEqual(["bc"]);
  });
});

describe("profile rules", () => {
  it("should normalize names and refuse blank, long and invisible characters", () => {
    expect(normalizeName("  Ada \t Lovelace ")).toBe("Ada Lovelace");
    expect(displayNameProblem("")).toMatch(/blank/);
    expect(displayNameProblem("x".repeat(31))).toMatch(/at most 30/);
    expect(displayNameProblem("A\u202eda")).toMatch(/invisible/);
    expect(displayNameProblem("Ada ✨")).toBeNull();
    expect(bioProblem("line\nbreak\tok")).toBeNull();
    expect(bioProblem("nul\u0000")).not.toBeNull();
    expect(groupNameProblem("ab")).toMatch(/3 to 50/);
    expect(groupNameProblem("Sky Builders")).toBeNull();
  });
});

describe("avatarProblem", () => {
  const owned = new Map([["hat", "avatar_hat"], ["wave", "avatar_emote"]]);
  const base = { body: "", base: "", tints: {}, wornItemIds: [] as string[], emotes: {} };

  it("should accept owned items of the right kind and known parts", () => {
    expect(avatarProblem({ ...base, tints: { head: "#aabbcc" }, wornItemIds: ["hat"], emotes: { 8: "wave" }, proportions: { height: 0.8 } }, owned)).toBeNull();
  });

  it("should name the field of each violation", () => {
    expect(avatarProblem({ ...base, tints: { wing: "#aabbcc" } }, owned)).toMatch(/^tints\.wing: /);
    expect(avatarProblem({ ...base, wornItemIds: ["wave"] }, owned)).toMatch(/^wornItemIds: "wave" is not a wearable/);
    expect(avatarProblem({ ...base, wornItemIds: ["cape"] }, owned)).toMatch(/^wornItemIds: "cape" is not an item you own/);
    expect(avatarProblem({ ...base, emotes: { 0: "wave" } }, owned)).toMatch(/^emotes\.0: /);
    expect(avatarProblem({ ...base, emotes: { 1: "hat" } }, owned)).toMatch(/^emotes\.1: "hat" is not an emote/);
    expect(avatarProblem({ ...base, proportions: { hips: 1.3 } }, owned)).toMatch(/^proportions\.hips: /);
    expect(avatarProblem({ ...base, base: "has space" }, owned)).toMatch(/^base: /);
  });

  it("should read an unset proportion as 1.0", () => {
    expect(proportionFactor(0)).toBe(1);
    expect(proportionFactor(1.1)).toBe(1.1);
  });
});

describe("mayFileReport", () => {
  it("should allow reports up to the limit in the window", () => {
    expect(mayFileReport(REPORT_RATE.limit - 1)).toBe(true);
    expect(mayFileReport(REPORT_RATE.limit)).toBe(false);
  });
});

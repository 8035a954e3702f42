import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { searchTermsOf } from "@playfield/core";
import { buildNameSegment, idAt, indexOfId, segmentTerms, sourceAt, sourceText } from "../src/services/social/name-segment.js";
import type { SearchSubject } from "../src/services/social/name-search.js";

/*
 * A segment holds exactly the terms `searchTermsOf` gives for its subjects,
 * read in (term, id) order from any query on, for any names: unicode ones
 * with surrogate pairs, words shared between subjects, ids in any order.
 */

// Few letters, so that terms collide; "𝒜" and "é" test code points beyond one code unit and beyond Latin-1.
const letters = fc.constantFrom("a", "b", "c", "_", "1", "é", "𝒜", " ");
const name = fc.array(letters, { minLength: 1, maxLength: 7 }).map((chars) => chars.join(""));
const subjects = fc.uniqueArray(
  fc.record({ id: fc.stringMatching(/^[a-z0-9]{1,4}$/), nameKey: name, otherNames: fc.array(name, { maxLength: 2 }) }),
  { selector: (s) => s.id, maxLength: 20 },
).map((list) => list.map((s): SearchSubject => ({ kind: "g", ...s })));
const query = fc.array(letters, { minLength: 1, maxLength: 3 }).map((chars) => chars.join(""));

/** The reference: every term with `tag` starting with `query`, sorted by term then id. */
function expectedTerms(list: SearchSubject[], tag: "w" | "s", q: string) {
  return list
    .flatMap((s) => searchTermsOf(s.nameKey, s.otherNames).filter((t) => t.tag === tag && t.term.startsWith(q)).map((t) => ({ term: t.term, ownerId: s.id })))
    .sort((a, b) => (a.term !== b.term ? (a.term < b.term ? -1 : 1) : a.ownerId < b.ownerId ? -1 : a.ownerId > b.ownerId ? 1 : 0));
}

describe("buildNameSegment", () => {
  it("should hold each subject's id and names, found by id", () => {
    fc.assert(fc.property(subjects, (list) => {
      const { segment, leftOut } = buildNameSegment("g", list);
      expect(leftOut).toEqual([]);
      expect(segment.count).toBe(list.length);
      for (const subject of list) {
        const at = indexOfId(segment, subject.id);
        expect(idAt(segment, at)).toBe(subject.id);
        expect(sourceAt(segment, at)).toBe(sourceText(subject));
      }
      expect(indexOfId(segment, "not-an-id")).toBe(-1);
    }));
  });

  it("should leave out the subjects whose names hold a NUL, which closes terms", () => {
    const bad: SearchSubject = { kind: "u", id: "u2", nameKey: "ab", otherNames: ["x\u0000y"] };
    const good: SearchSubject = { kind: "u", id: "u1", nameKey: "abc", otherNames: [] };
    const { segment, leftOut } = buildNameSegment("u", [bad, good]);
    expect(leftOut).toEqual([bad]);
    expect(segment.count).toBe(1);
    expect(indexOfId(segment, "u2")).toBe(-1);
  });
});

describe("segmentTerms", () => {
  it("should read the terms that start with the query in (term, id) order, as searchTermsOf gives them", () => {
    fc.assert(fc.property(subjects, query, fc.constantFrom("w" as const, "s" as const), (list, q, tag) => {
      const { segment } = buildNameSegment("g", list);
      expect([...segmentTerms(segment, tag, q)]).toEqual(expectedTerms(list, tag, q));
    }), { numRuns: 300 });
  });

  it("should read nothing from an empty segment", () => {
    const { segment } = buildNameSegment("g", []);
    expect([...segmentTerms(segment, "s", "ab")]).toEqual([]);
  });
});

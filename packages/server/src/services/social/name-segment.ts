import { nameWords, SUBSTRING_MIN, type NameSegment, type StoredNameSegment } from "@playfield/core";
import type { SearchSubject } from "./name-search.js";

/*
 * A name segment: the search terms of many subjects (users or groups) packed
 * into typed arrays over two strings, built in one pass, one sort of the
 * suffixes and one sort of the distinct words, and never changed afterwards
 * (a rebuild replaces it). It holds what the `search_terms` rows hold, about
 * 120 bytes per user against ~6 KB of rows, so that a bulk of names loaded
 * at once (an import, a seeded population) costs a sort instead of a row and
 * two index entries per term. Writes after the build go to the rows (see
 * name-search.ts).
 */

/** Closes every term in `keys` and `words`: below every other character, so comparing code units up to it orders terms as strings. */
const TERM_END = "\u0000";
const TERM_END_CODE = 0;
/** A name with no surrogate has one code point per code unit. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** The indexed names of a subject, joined: a different value means its terms are stale. */
export const sourceText = (subject: SearchSubject) => [subject.nameKey, ...subject.otherNames].join("\n");

/**
 * Packs the terms of `subjects` (ids distinct). Subjects whose names hold
 * TERM_END cannot be packed and are answered in `leftOut`, to be indexed as
 * rows. Cost: linear in the names, plus a sort of the suffixes and one of
 * the distinct words.
 */
export function buildNameSegment(kind: "u" | "g", subjects: readonly SearchSubject[]): { segment: NameSegment; leftOut: SearchSubject[] } {
  const leftOut: SearchSubject[] = [];
  const packed: { subject: SearchSubject; source: string }[] = [];
  for (const subject of subjects) {
    const source = sourceText(subject);
    if (source.includes(TERM_END)) leftOut.push(subject);
    else packed.push({ subject, source });
  }
  packed.sort((a, b) => (a.subject.id < b.subject.id ? -1 : a.subject.id > b.subject.id ? 1 : 0));

  const n = packed.length;
  const idBounds = new Int32Array(n + 1);
  const sourceBounds = new Int32Array(n + 1);
  const keyStarts = new Int32Array(n + 1);
  const ids: string[] = [];
  const sources: string[] = [];
  const keys: string[] = [];
  const suffixes: number[] = [];
  // Words by first appearance, and one (word, subject) entry per word of a subject.
  const wordIds = new Map<string, number>();
  const entryWords: number[] = [];
  const entryOwners: number[] = [];
  let idLength = 0, sourceLength = 0, at = 0;
  for (let i = 0; i < n; i++) {
    const { subject, source } = packed[i]!;
    ids.push(subject.id);
    sources.push(source);
    idBounds[i + 1] = idLength += subject.id.length;
    sourceBounds[i + 1] = sourceLength += source.length;
    keyStarts[i] = at;
    // Suffixes as domain/search-ranking.ts `nameSuffixes` makes them: from the second code point on, SUBSTRING_MIN code points or more.
    const key = subject.nameKey;
    if (!SURROGATE.test(key)) {
      for (let offset = 1; offset <= key.length - SUBSTRING_MIN; offset++) suffixes.push(at + offset);
    } else {
      const points: number[] = [];
      for (let offset = 0; offset < key.length; offset += key.codePointAt(offset)! > 0xffff ? 2 : 1) points.push(offset);
      for (let p = 1; p <= points.length - SUBSTRING_MIN; p++) suffixes.push(at + points[p]!);
    }
    keys.push(key, TERM_END);
    at += key.length + 1;
    for (const word of nameWords([key, ...subject.otherNames])) {
      if (word === key) continue;
      let id = wordIds.get(word);
      if (id === undefined) wordIds.set(word, (id = wordIds.size));
      entryWords.push(id);
      entryOwners.push(i);
    }
  }
  keyStarts[n] = at;
  const joined = keys.join("");
  return {
    segment: {
      kind, count: n,
      ids: ids.join(""), idBounds,
      sources: sources.join(""), sourceBounds,
      keys: joined, keyStarts,
      suffixes: sortTerms(joined, suffixes),
      ...groupWords([...wordIds.keys()], entryWords, entryOwners),
    },
    leftOut,
  };
}

/**
 * The distinct words in order, and each word's subjects: a counting sort of
 * the entries by the word's rank, stable, so subjects stay in id order.
 */
function groupWords(distinct: string[], entryWords: number[], entryOwners: number[]) {
  const order = distinct.map((_, id) => id).sort((a, b) => (distinct[a]! < distinct[b]! ? -1 : 1));
  const rank = new Int32Array(distinct.length);
  const wordStarts = new Int32Array(distinct.length);
  const parts: string[] = [];
  let at = 0;
  order.forEach((id, k) => {
    rank[id] = k;
    wordStarts[k] = at;
    parts.push(distinct[id]!, TERM_END);
    at += distinct[id]!.length + 1;
  });
  const wordBounds = new Int32Array(distinct.length + 1);
  for (const id of entryWords) wordBounds[rank[id]! + 1]!++;
  for (let k = 1; k <= distinct.length; k++) wordBounds[k]! += wordBounds[k - 1]!;
  const next = wordBounds.slice(0, distinct.length);
  const wordOwners = new Int32Array(entryWords.length);
  for (let e = 0; e < entryWords.length; e++) wordOwners[next[rank[entryWords[e]!]!]!++] = entryOwners[e]!;
  return { words: parts.join(""), wordStarts, wordBounds, wordOwners };
}

/**
 * Term positions in (term, id) order: a stable radix pass on the first two
 * code units, then a comparison sort of each run that shares them (from the
 * third unit on). Equal terms belong to distinct subjects, laid out in id
 * order, so position breaks ties.
 */
function sortTerms(text: string, starts: readonly number[]): Int32Array {
  const n = starts.length;
  const head = new Uint32Array(n);
  let order = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const start = starts[i]!;
    const first = text.charCodeAt(start);
    head[i] = ((first << 16) | (first === TERM_END_CODE ? 0 : text.charCodeAt(start + 1))) >>> 0;
    order[i] = i;
  }
  // Two stable counting passes of 16 bits (low, then high): `order` ends sorted by head, ties in position order.
  let spare = new Int32Array(n);
  for (const shift of [0, 16]) {
    const counts = new Uint32Array(0x10001);
    for (let i = 0; i < n; i++) counts[((head[order[i]!]! >>> shift) & 0xffff) + 1]!++;
    for (let d = 1; d <= 0x10000; d++) counts[d]! += counts[d - 1]!;
    for (let i = 0; i < n; i++) spare[counts[(head[order[i]!]! >>> shift) & 0xffff]!++] = order[i]!;
    [order, spare] = [spare, order];
  }
  const sorted = new Int32Array(n);
  for (let i = 0; i < n; i++) sorted[i] = starts[order[i]!]!;
  const fromThird = (a: number, b: number): number => {
    for (let i = a + 2, j = b + 2; ; i++, j++) {
      const x = text.charCodeAt(i), y = text.charCodeAt(j);
      if (x !== y) return x - y;
      if (x === TERM_END_CODE) return a - b;
    }
  };
  for (let from = 0; from < n;) {
    const key = head[order[from]!]!;
    let to = from + 1;
    while (to < n && head[order[to]!] === key) to++;
    // A run of terms shorter than two units holds equal terms, already in position order.
    if (to - from > 1 && (key & 0xffff) !== TERM_END_CODE && key >>> 16 !== TERM_END_CODE) sorted.subarray(from, to).sort(fromThird);
    from = to;
  }
  return sorted;
}

const ARRAYS = ["idBounds", "sourceBounds", "keyStarts", "suffixes", "wordStarts", "wordBounds", "wordOwners"] as const;

/** A segment as a row holds it: JSON only (its Int32Arrays as arrays of numbers). */
export function storedSegment(segment: NameSegment): StoredNameSegment {
  const stored: Record<string, unknown> = { ...segment };
  for (const name of ARRAYS) stored[name] = Array.from(segment[name]);
  return stored as StoredNameSegment;
}

/** A segment back from its row. */
export function segmentFromStored(stored: StoredNameSegment): NameSegment {
  const segment: Record<string, unknown> = { ...stored };
  for (const name of ARRAYS) segment[name] = Int32Array.from(stored[name]);
  return segment as unknown as NameSegment;
}

/** The id of a stored segment: a SHA-256 of its JSON, so one id always means one content. */
export async function segmentIdOf(stored: StoredNameSegment): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(stored)));
  return `${stored.kind}:${Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** The id of subject `i`. */
export const idAt = (segment: NameSegment, i: number): string => segment.ids.slice(segment.idBounds[i]!, segment.idBounds[i + 1]!);

/** The indexed names of subject `i` (`sourceText`). */
export const sourceAt = (segment: NameSegment, i: number): string =>
  segment.sources.slice(segment.sourceBounds[i]!, segment.sourceBounds[i + 1]!);

/** The position of the subject `id`, or -1. O(log n). */
export function indexOfId(segment: NameSegment, id: string): number {
  let lo = 0, hi = segment.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const other = idAt(segment, mid);
    if (other === id) return mid;
    if (other < id) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/** The subject whose name key holds position `start` of `keys`. O(log n). */
function subjectAt(segment: NameSegment, start: number): number {
  let lo = 0, hi = segment.count;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (segment.keyStarts[mid]! <= start) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** The first of `starts` (terms of `text` in order) whose term is not below `query`. */
function lowerBound(text: string, starts: Int32Array, query: string): number {
  let lo = 0, hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareTerm(text, starts[mid]!, query) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const termAt = (text: string, start: number) => text.slice(start, text.indexOf(TERM_END, start));

/** Compares the term at `start` with `query` as strings compare. */
function compareTerm(text: string, start: number, query: string): number {
  for (let k = 0; ; k++) {
    const x = text.charCodeAt(start + k);
    if (k === query.length) return x === TERM_END_CODE ? 0 : 1;
    if (x === TERM_END_CODE) return -1;
    const y = query.charCodeAt(k);
    if (x !== y) return x - y;
  }
}

function termStartsWith(text: string, start: number, query: string): boolean {
  for (let k = 0; k < query.length; k++) {
    const x = text.charCodeAt(start + k);
    if (x === TERM_END_CODE || x !== query.charCodeAt(k)) return false;
  }
  return true;
}

/** One term of one subject, as `search_terms` rows give it. */
export interface TermHit {
  term: string;
  ownerId: string;
}

/** The terms with tag `tag` (`w` words, `s` suffixes) that start with `query`, in (term, id) order. O(log n) to the first. */
export function* segmentTerms(segment: NameSegment, tag: "w" | "s", query: string): Generator<TermHit> {
  if (tag === "s") {
    const { keys, suffixes } = segment;
    for (let i = lowerBound(keys, suffixes, query); i < suffixes.length && termStartsWith(keys, suffixes[i]!, query); i++) {
      yield { term: termAt(keys, suffixes[i]!), ownerId: idAt(segment, subjectAt(segment, suffixes[i]!)) };
    }
    return;
  }
  const { words, wordStarts, wordBounds, wordOwners } = segment;
  for (let k = lowerBound(words, wordStarts, query); k < wordStarts.length && termStartsWith(words, wordStarts[k]!, query); k++) {
    const term = termAt(words, wordStarts[k]!);
    for (let e = wordBounds[k]!; e < wordBounds[k + 1]!; e++) yield { term, ownerId: idAt(segment, wordOwners[e]!) };
  }
}

import {
  cursorOf, matchName, searchTermsOf, SearchTier, tables,
  type Cursor, type NameSegment, type SearchSegmentRow, type SearchSourceRow, type SearchTermRow, type TableDef, type Tx,
} from "@playfield/core";
import {
  buildNameSegment, indexOfId, segmentFromStored, segmentIdOf, segmentTerms, sourceAt, sourceText, storedSegment, type TermHit,
} from "./name-segment.js";

/*
 * Indexed name search for users and groups (ranking: domain/search-ranking.ts).
 * Tiers 0 and 1 (the name key equals or starts with the query) read the
 * name's own ordered index; tiers 2 and 3 (word prefixes, substrings) read
 * the search terms: a kind's packed segment (name-segment.ts: the bulk,
 * built in one sort) merged with the `search_terms` rows (names written
 * since). Every candidate is checked against its live names with
 * `matchName`, so a stale term never answers, and the answer equals a full
 * scan ranked by the same rule. Cost: O(log n + the terms read), whatever
 * the number of names.
 *
 * A kind's segment is stored once, by an id that is the SHA-256 of its
 * content (`search_segment_data`), and named by a small row
 * (`search_segments`: id, count, overlap) that every write and search reads.
 * Each process keeps the few segments it last read, by id: an id names one
 * content forever, so what a process keeps can never be stale, whichever
 * process (sharing the storage) built the segment; a rebuild names a new id.
 */

/** One searchable name: a user (`u`) or a group (`g`). */
export interface SearchSubject {
  kind: "u" | "g";
  id: string;
  /** The lowercased name with the table's ordered index (usernameKey, nameKey). */
  nameKey: string;
  /** Other names (a user's display name). */
  otherNames: string[];
}

/** How one kind of subject is searched: its name index, its names, and the rows of ids the caller may see. */
export interface SearchSource<Row> {
  kind: "u" | "g";
  table: TableDef<Row>;
  /** An index of `table` keyed by `[nameKey]`. */
  nameIndex: string;
  nameKeyOf(row: Row): string;
  subjectOf(row: Row): SearchSubject;
  /** The live rows of `ids` in their order (null where one is not shown to this caller): one read for all, not one per id. */
  loadMany(ids: readonly string[]): Promise<(Row | null)[]>;
}

const PAGE = 64;

/** Segments this process read or built lately, by id (their content: never stale). */
const segments = new Map<string, NameSegment>();
const SEGMENTS_KEPT = 4;

function keep(id: string, segment: NameSegment): NameSegment {
  segments.delete(id);
  segments.set(id, segment);
  if (segments.size > SEGMENTS_KEPT) segments.delete(segments.keys().next().value!);
  return segment;
}

/** A kind's current segment: its small row, and the segment itself from this process's few or read once. */
async function heldSegment(tx: Tx, kind: "u" | "g"): Promise<{ row: SearchSegmentRow; segment: NameSegment } | undefined> {
  const row = await tx.get(tables.searchSegments, kind);
  // A row of an earlier version (the segment inline, no id) counts as none: the next search rebuilds.
  if (!row || typeof row.segmentId !== "string") return undefined;
  const cached = segments.get(row.segmentId);
  if (cached) return { row, segment: keep(row.segmentId, cached) };
  const data = await tx.get(tables.searchSegmentData, row.segmentId);
  if (!data) throw new Error(`search segment ${row.segmentId} is missing`);
  return { row, segment: keep(row.segmentId, segmentFromStored(data.segment)) };
}

/**
 * Keeps a subject's names searchable (replacing stale terms), inside the
 * transaction that changes them: nothing when its segment already holds
 * these names, else `search_terms` rows.
 */
export async function indexNames(tx: Tx, subject: SearchSubject): Promise<void> {
  const id = `${subject.kind}:${subject.id}`;
  const [previous, held] = await Promise.all([tx.get(tables.searchSources, id), heldSegment(tx, subject.kind)]);
  const source = sourceText(subject);
  if (previous?.source === source) return;
  if (previous) await dropTerms(tx, previous);
  const at = held ? indexOfId(held.segment, subject.id) : -1;
  if (held && at >= 0 && sourceAt(held.segment, at) === source) {
    // Renamed back to the names the segment holds: its terms serve again.
    if (previous) {
      await tx.delete(tables.searchSources, id);
      await tx.put(tables.searchSegments, { ...held.row, overlap: held.row.overlap - 1 });
    }
    return;
  }
  const terms = searchTermsOf(subject.nameKey, subject.otherNames);
  for (const [n, { tag, term }] of terms.entries()) {
    await tx.put(tables.searchTerms, { id: `${id}:${n}`, kind: subject.kind, tag, term, ownerId: subject.id });
  }
  await tx.put(tables.searchSources, { id, kind: subject.kind, ownerId: subject.id, source, termCount: terms.length });
  if (held && at >= 0 && !previous) await tx.put(tables.searchSegments, { ...held.row, overlap: held.row.overlap + 1 });
}

/** Removes a subject's search terms (a deleted group); a segment's terms of it stay, unread: its row is gone. */
export async function unindexNames(tx: Tx, kind: "u" | "g", ownerId: string): Promise<void> {
  const previous = await tx.get(tables.searchSources, `${kind}:${ownerId}`);
  if (!previous) return;
  await dropTerms(tx, previous);
  await tx.delete(tables.searchSources, previous.id);
  const held = await heldSegment(tx, kind);
  if (held && indexOfId(held.segment, ownerId) >= 0) await tx.put(tables.searchSegments, { ...held.row, overlap: held.row.overlap - 1 });
}

async function dropTerms(tx: Tx, source: SearchSourceRow): Promise<void> {
  for (let n = 0; n < source.termCount; n++) await tx.delete(tables.searchTerms, `${source.id}:${n}`);
}

/** How many subjects of a kind have their names indexed, and how many of them as rows. O(log n). */
export async function indexedCount(tx: Tx, kind: "u" | "g"): Promise<{ subjects: number; asRows: number }> {
  const [row, asRows] = await Promise.all([
    tx.get(tables.searchSegments, kind),
    tx.count(tables.searchSources, "byKind", { equals: [kind] }),
  ]);
  const held = row && typeof row.segmentId === "string" ? row : undefined;
  return { subjects: (held?.count ?? 0) + asRows - (held?.overlap ?? 0), asRows };
}

/**
 * Indexes exactly `subjects` (ids distinct): one segment built from them
 * replaces the kind's segment and its `search_terms` rows. Linear in the
 * names plus one sort of the terms.
 */
export async function rebuildNames(tx: Tx, kind: "u" | "g", subjects: readonly SearchSubject[]): Promise<void> {
  for (const source of await tx.query(tables.searchSources, "byKind", { equals: [kind] })) {
    await dropTerms(tx, source);
    await tx.delete(tables.searchSources, source.id);
  }
  const { segment, leftOut } = buildNameSegment(kind, subjects);
  const stored = storedSegment(segment);
  const segmentId = await segmentIdOf(stored);
  const before = await tx.get(tables.searchSegments, kind);
  if (typeof before?.segmentId === "string" && before.segmentId !== segmentId) await tx.delete(tables.searchSegmentData, before.segmentId);
  await tx.put(tables.searchSegmentData, { id: segmentId, segment: stored });
  await tx.put(tables.searchSegments, { kind, segmentId, count: segment.count, overlap: 0 });
  keep(segmentId, segment);
  for (const subject of leftOut) await indexNames(tx, subject);
}

/** The terms with `tag` that start with `query`, in (term, id) order: the segment's and the rows', merged. */
async function* termsFrom(tx: Tx, kind: "u" | "g", tag: "w" | "s", query: string): AsyncGenerator<TermHit> {
  const held = await heldSegment(tx, kind);
  const packed = held ? segmentTerms(held.segment, tag, query) : null;
  let next = packed?.next();
  let after: Cursor | undefined;
  pages: for (;;) {
    const rows: SearchTermRow[] = await tx.query(tables.searchTerms, "byTerm", {
      equals: [kind, tag], range: { gte: query }, limit: PAGE, ...(after ? { after } : {}),
    });
    for (const row of rows) {
      if (!row.term.startsWith(query)) break pages;
      while (next && !next.done && before(next.value, row)) {
        yield next.value;
        next = packed!.next();
      }
      yield row;
    }
    if (rows.length < PAGE) break;
    after = cursorOf(tables.searchTerms, "byTerm", rows[rows.length - 1]!);
  }
  while (next && !next.done) {
    yield next.value;
    next = packed!.next();
  }
}

const before = (a: TermHit, b: TermHit) => a.term < b.term || (a.term === b.term && a.ownerId < b.ownerId);

/**
 * The best `limit` rows for a normalized query, best first. Reads pages in
 * rank order and stops as soon as `limit` rows are shown.
 */
export async function searchNames<Row>(tx: Tx, from: SearchSource<Row>, query: string, limit: number): Promise<Row[]> {
  const found: Row[] = [];
  const seen = new Set<string>();
  if (!query) return found;

  /** Considers candidates in order, reading their rows at once; answers whether `limit` rows are found. */
  const consider = async (candidates: readonly { id: string; text: string | null }[], tier: (t: number) => boolean): Promise<boolean> => {
    const ids = [...new Set(candidates.map((c) => c.id).filter((id) => !seen.has(id)))];
    if (ids.length === 0) return false;
    const loaded = await from.loadMany(ids);
    const rows = new Map(ids.map((id, i) => [id, loaded[i]!]));
    for (const { id, text } of candidates) {
      const row = rows.get(id);
      if (!row || seen.has(id)) continue;
      const subject = from.subjectOf(row);
      const match = matchName(query, subject.nameKey, subject.otherNames);
      // A stale term, or a name that ranks in another tier or at another text, is read there instead.
      if (!match || !tier(match.tier) || (text !== null && match.text !== text)) continue;
      seen.add(id);
      found.push(row);
      if (found.length >= limit) return true;
    }
    return false;
  };

  // Tiers 0 and 1: the name index, from the query on, while names start with it.
  let after: Cursor | undefined;
  for (;;) {
    const rows = await tx.query(from.table, from.nameIndex, { range: { gte: query }, limit: PAGE, ...(after ? { after } : {}) });
    const starting = rows.filter((row) => from.nameKeyOf(row).startsWith(query));
    if (await consider(starting.map((row) => ({ id: from.table.primaryKey(row), text: null })), (t) => t <= SearchTier.Prefix)) return found;
    if (rows.length < PAGE || starting.length < rows.length) break;
    after = cursorOf(from.table, from.nameIndex, rows[rows.length - 1]!);
  }

  // Tier 2 (words), then tier 3 (suffixes), in term order, PAGE hits at a time.
  for (const [tag, tier] of [["w", SearchTier.Word], ["s", SearchTier.Substring]] as const) {
    let batch: { id: string; text: string }[] = [];
    for await (const hit of termsFrom(tx, from.kind, tag, query)) {
      batch.push({ id: hit.ownerId, text: hit.term });
      if (batch.length < PAGE) continue;
      if (await consider(batch, (t) => t === tier)) return found;
      batch = [];
    }
    if (await consider(batch, (t) => t === tier)) return found;
  }
  return found;
}

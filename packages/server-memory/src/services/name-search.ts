import {
  cursorOf, matchName, searchTermsOf, SearchTier, tables,
  type Cursor, type SearchSourceRow, type SearchTermRow, type TableDef, type Tx,
} from "@playfield/core";

/*
 * Indexed name search for users and groups (ranking: domain/search-ranking.ts).
 * Tiers 0 and 1 (the name key equals or starts with the query) read the
 * name's own ordered index; tiers 2 and 3 (word prefixes, substrings) read
 * the search terms. Every candidate is checked against its live names with
 * `matchName`, so a stale term never answers, and the answer equals a full
 * scan ranked by the same rule. Cost: O(log n + the rows read), whatever
 * the number of names.
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

/** How one kind of subject is searched: its name index, its names, and the row of an id the caller may see. */
export interface SearchSource<Row> {
  kind: "u" | "g";
  table: TableDef<Row>;
  /** An index of `table` keyed by `[nameKey]`. */
  nameIndex: string;
  nameKeyOf(row: Row): string;
  subjectOf(row: Row): SearchSubject;
  /** The live row of an id, or null when it is not shown to this caller. */
  load(id: string): Promise<Row | null>;
}

const PAGE = 64;

const sourceText = (subject: SearchSubject) => [subject.nameKey, ...subject.otherNames].join("\n");

/** Writes a subject's search terms (replacing stale ones). Inside the transaction that changes its names. */
export async function indexNames(tx: Tx, subject: SearchSubject): Promise<void> {
  const id = `${subject.kind}:${subject.id}`;
  const previous = await tx.get(tables.searchSources, id);
  const source = sourceText(subject);
  if (previous?.source === source) return;
  if (previous) await dropTerms(tx, previous);
  const terms = searchTermsOf(subject.nameKey, subject.otherNames);
  for (const [n, { tag, term }] of terms.entries()) {
    await tx.put(tables.searchTerms, { id: `${id}:${n}`, kind: subject.kind, tag, term, ownerId: subject.id });
  }
  await tx.put(tables.searchSources, { id, kind: subject.kind, ownerId: subject.id, source, termCount: terms.length });
}

/** Removes a subject's search terms (a deleted group). */
export async function unindexNames(tx: Tx, kind: "u" | "g", ownerId: string): Promise<void> {
  const previous = await tx.get(tables.searchSources, `${kind}:${ownerId}`);
  if (!previous) return;
  await dropTerms(tx, previous);
  await tx.delete(tables.searchSources, previous.id);
}

async function dropTerms(tx: Tx, source: SearchSourceRow): Promise<void> {
  for (let n = 0; n < source.termCount; n++) await tx.delete(tables.searchTerms, `${source.id}:${n}`);
}

/**
 * The best `limit` rows for a normalized query, best first. Reads pages in
 * rank order and stops as soon as `limit` rows are shown.
 */
export async function searchNames<Row>(tx: Tx, from: SearchSource<Row>, query: string, limit: number): Promise<Row[]> {
  const found: Row[] = [];
  const seen = new Set<string>();
  if (!query) return found;

  const consider = async (id: string, tier: (t: number) => boolean, text: string | null): Promise<void> => {
    if (seen.has(id)) return;
    const row = await from.load(id);
    if (!row) return;
    const subject = from.subjectOf(row);
    const match = matchName(query, subject.nameKey, subject.otherNames);
    // A stale term, or a name that ranks in another tier or at another text, is read there instead.
    if (!match || !tier(match.tier) || (text !== null && match.text !== text)) return;
    seen.add(id);
    found.push(row);
  };

  // Tiers 0 and 1: the name index, from the query on, while names start with it.
  let after: Cursor | undefined;
  scan: for (;;) {
    const rows = await tx.query(from.table, from.nameIndex, { range: { gte: query }, limit: PAGE, ...(after ? { after } : {}) });
    for (const row of rows) {
      if (!from.nameKeyOf(row).startsWith(query)) break scan;
      await consider(from.table.primaryKey(row), (t) => t <= SearchTier.Prefix, null);
      if (found.length >= limit) return found;
    }
    if (rows.length < PAGE) break;
    after = cursorOf(from.table, from.nameIndex, rows[rows.length - 1]!);
  }

  // Tier 2 (words), then tier 3 (suffixes): the term index, in term order.
  for (const [tag, tier] of [["w", SearchTier.Word], ["s", SearchTier.Substring]] as const) {
    let after: Cursor | undefined;
    terms: for (;;) {
      const rows: SearchTermRow[] = await tx.query(tables.searchTerms, "byTerm", {
        equals: [from.kind, tag], range: { gte: query }, limit: PAGE, ...(after ? { after } : {}),
      });
      for (const row of rows) {
        if (!row.term.startsWith(query)) break terms;
        await consider(row.ownerId, (t) => t === tier, row.term);
        if (found.length >= limit) return found;
      }
      if (rows.length < PAGE) break;
      after = cursorOf(tables.searchTerms, "byTerm", rows[rows.length - 1]!);
    }
  }
  return found;
}

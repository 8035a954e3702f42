import {
  createFieldMatcher, cursorOf, DISCOVERY, searchFields, searchTerms, tables, type ExperienceRow, type Query, type Tx,
} from "@playfield/core";

/*
 * The search index of public experiences: one row per word of the title and
 * genre (`experience_terms`), kept in step with the experience by every
 * CatalogService write that changes a title, genre or visibility. Each row
 * also holds the experience's normalised title and words, so a query ranks
 * its candidates on the index rows alone. A query reads the rows of its
 * rarest term (a prefix range, counted in O(log n)), at most
 * DISCOVERY.searchCandidatesMax of them. The matches of each rank (exact
 * title, title starting with the query, other) are read by id when few, or
 * picked out of a walk of the visits index when many: they are then dense
 * there, so the walk stops after a page or two.
 */

/** Brings an experience's search terms in line with its row: its title and genre words while public, none otherwise. */
export async function syncTerms(tx: Tx, experience: ExperienceRow): Promise<void> {
  const fields = searchFields(experience.title, experience.genre);
  const wanted = experience.visibility === "public" ? fields.words : [];
  const existing = await tx.query(tables.experienceTerms, "byExperience", { equals: [experience.id] });
  for (const row of existing) if (!wanted.includes(row.term)) await tx.delete(tables.experienceTerms, row.id);
  for (const term of wanted) {
    const row = existing.find((candidate) => candidate.term === term);
    if (row && row.title === fields.title && sameWords(row.words, fields.words)) continue;
    await tx.put(tables.experienceTerms, { id: `${term}:${experience.id}`, term, experienceId: experience.id, words: [...fields.words], title: fields.title });
  }
}

const sameWords = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((word, i) => word === b[i]);

const prefixRange = (term: string) => ({ gte: term, lt: `${term}\uffff` });

/** Rows whose title and genre hold every term of `query` as a word prefix, best match first, then most visited. */
export async function searchExperiences(
  tx: Tx, query: string, genre: string, keep: (row: ExperienceRow) => boolean, limit: number,
): Promise<ExperienceRow[]> {
  const terms = searchTerms(query);
  if (terms.length === 0 || limit === 0) return [];
  let rarest = terms[0]!, fewest = Infinity;
  for (const term of terms) {
    const count = await tx.count(tables.experienceTerms, "byTerm", { range: prefixRange(term) });
    if (count < fewest) [rarest, fewest] = [term, count];
    if (count === 0) return [];
  }
  const candidates = await tx.query(tables.experienceTerms, "byTerm", { range: prefixRange(rarest), limit: DISCOVERY.searchCandidatesMax });
  const rank = createFieldMatcher(query);
  // Match rank per experience (a prefix can hit two words of one title: the first row decides, they hold the same fields).
  const ranks = new Map<string, number>();
  const tiers: string[][] = [[], [], [], []];
  for (const candidate of candidates) {
    if (ranks.has(candidate.experienceId)) continue;
    const match = rank(candidate);
    ranks.set(candidate.experienceId, match);
    tiers[match]!.push(candidate.experienceId);
  }

  // Best rank first, each rank's rows most visited first: one rank at a time, until `limit` rows.
  const index = genre ? "publicByGenreVisits" : "publicByVisits";
  const scope: Query = genre ? { equals: [genre] } : {};
  const rows = await tx.count(tables.experiences, index, scope);
  const out: ExperienceRow[] = [];
  for (let tier = 3; tier >= 1 && out.length < limit; tier--) {
    const ids = tiers[tier]!;
    if (ids.length === 0) continue;
    const want = limit - out.length;
    // Reading the matches by id costs one read of `ids.length` rows; walking
    // the visits index costs about want × rows / matches rows, read 100 a page.
    if (ids.length * ids.length > want * rows) {
      out.push(...(await mostVisitedOf(tx, index, scope, (row) => ranks.get(row.id) === tier, keep, ids.length, want)));
      continue;
    }
    const hits = (await tx.getMany(tables.experiences, ids)).filter((row) => row !== undefined && row.visibility === "public" && keep(row)) as ExperienceRow[];
    out.push(...hits.sort(compareByVisits).slice(0, want));
  }
  return out;
}

/**
 * The `want` most visited rows of a visits index that `matches` and `keep`
 * accept, in `compareByVisits` order; the walk ends early once the `total`
 * rows that match were all read. The index orders
 * ties by id alone, so rows as visited as the last one wanted are read too
 * before the final sort.
 */
async function mostVisitedOf(
  tx: Tx, index: string, scope: Query, matches: (row: ExperienceRow) => boolean, keep: (row: ExperienceRow) => boolean,
  total: number, want: number,
): Promise<ExperienceRow[]> {
  const picked: ExperienceRow[] = [];
  let seen = 0;
  let after: Query["after"];
  walk: for (;;) {
    const page = await tx.query(tables.experiences, index, { ...scope, order: "desc", limit: 100, ...(after ? { after } : {}) });
    for (const row of page) {
      if (picked.length >= want && row.visits < picked[want - 1]!.visits) break walk;
      if (!matches(row)) continue;
      if (keep(row)) picked.push(row);
      if (++seen === total) break walk;
    }
    if (page.length < 100) break;
    after = cursorOf(tables.experiences, index, page[page.length - 1]!);
  }
  return picked.sort(compareByVisits).slice(0, want);
}

/** Most visited first, then newest, then by id: the tie-break of every discovery order. */
export function compareByVisits(a: ExperienceRow, b: ExperienceRow): number {
  return b.visits - a.visits || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

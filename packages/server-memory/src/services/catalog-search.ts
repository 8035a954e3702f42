import { createMatcher, DISCOVERY, searchTerms, tables, type ExperienceRow, type Tx } from "@playfield/core";

/*
 * The search index of public experiences: one row per word of the title and
 * genre (`experience_terms`), kept in step with the experience by every
 * CatalogService write that changes a title, genre or visibility. A query
 * reads the rows of its rarest term (a prefix range, counted in O(log n)),
 * at most DISCOVERY.searchCandidatesMax of them, and checks the other terms
 * on the candidates' titles.
 */

/** Brings an experience's search terms in line with its row: its title and genre words while public, none otherwise. */
export async function syncTerms(tx: Tx, experience: ExperienceRow): Promise<void> {
  const wanted = experience.visibility === "public" ? searchTerms(`${experience.title} ${experience.genre}`) : [];
  const existing = await tx.query(tables.experienceTerms, "byExperience", { equals: [experience.id] });
  for (const row of existing) if (!wanted.includes(row.term)) await tx.delete(tables.experienceTerms, row.id);
  for (const term of wanted) {
    if (!existing.some((row) => row.term === term)) {
      await tx.put(tables.experienceTerms, { id: `${term}:${experience.id}`, term, experienceId: experience.id });
    }
  }
}

const prefixRange = (term: string) => ({ gte: term, lt: `${term}\uffff` });

/** Rows whose title and genre hold every term of `query` as a word prefix, best match first, then most visited. */
export async function searchExperiences(tx: Tx, query: string, keep: (row: ExperienceRow) => boolean, limit: number): Promise<ExperienceRow[]> {
  const terms = searchTerms(query);
  if (terms.length === 0) return [];
  let rarest = terms[0]!, fewest = Infinity;
  for (const term of terms) {
    const count = await tx.count(tables.experienceTerms, "byTerm", { range: prefixRange(term) });
    if (count < fewest) [rarest, fewest] = [term, count];
    if (count === 0) return [];
  }
  const candidates = await tx.query(tables.experienceTerms, "byTerm", { range: prefixRange(rarest), limit: DISCOVERY.searchCandidatesMax });
  const rank = createMatcher(query);
  const seen = new Set<string>();
  const hits: { row: ExperienceRow; rank: number }[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.experienceId)) continue;
    seen.add(candidate.experienceId);
    const row = await tx.get(tables.experiences, candidate.experienceId);
    if (!row || row.visibility !== "public" || !keep(row)) continue;
    const match = rank(row.title, row.genre);
    if (match > 0) hits.push({ row, rank: match });
  }
  hits.sort((a, b) => b.rank - a.rank || compareByVisits(a.row, b.row));
  return hits.slice(0, limit).map((hit) => hit.row);
}

/** Most visited first, then newest, then by id: the tie-break of every discovery order. */
export function compareByVisits(a: ExperienceRow, b: ExperienceRow): number {
  return b.visits - a.visits || b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

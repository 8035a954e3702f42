/*
 * Pure rules of discovery (CatalogService.ListExperiences): how titles are cut
 * into search terms, how a title matches a query, how votes rank, and the
 * windows of the time-based sorts. docs/catalog.md defines each sort with them.
 */

/** The windows and caps of the time-based and personal sorts. */
export const DISCOVERY = {
  /** `trending`: joins counted over the last day. */
  trendingWindowMs: 24 * 60 * 60_000,
  /** `up_and_coming`: experiences created at most this long ago… */
  upAndComingMaxAgeMs: 30 * 24 * 60 * 60_000,
  /** …ranked by their joins over this window. */
  upAndComingWindowMs: 7 * 24 * 60 * 60_000,
  /** `friends`: plays of the caller's friends over this window. */
  friendsWindowMs: 7 * 24 * 60 * 60_000,
  /** `recent`: how many of the caller's latest plays are read. */
  recentPlaysRead: 500,
  /** `search`: candidates read from the term index at most (the rarest term's). */
  searchCandidatesMax: 2000,
  /** Filtered walks (a genre with `top_rated`, a query with another sort) read at most this many rows. */
  filteredWalkMax: 5000,
  /** Words of a title (and genre) kept as search terms, and of a query. */
  termsMax: 16,
  /** Longest search term kept (longer words are cut: prefixes still match). */
  termLengthMax: 24,
} as const;

/** The genre as indexes and filters compare it: trimmed, lowercase. */
export function genreKey(genre: string): string {
  return genre.trim().toLowerCase();
}

/**
 * Normalises text for search: lowercase, accents removed (NFKD without
 * combining marks), everything but letters and digits turned into spaces.
 */
export function normalizeText(text: string): string {
  // Fast path for ASCII text (most titles): no Unicode normalisation needed.
  if (/^[\x20-\x7e]*$/.test(text)) return text.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** The distinct search terms of a text, in order of first appearance, at most `DISCOVERY.termsMax`. */
export function searchTerms(text: string): string[] {
  const normalized = normalizeText(text);
  if (normalized === "") return [];
  const terms: string[] = [];
  for (const word of normalized.split(" ")) {
    const term = word.slice(0, DISCOVERY.termLengthMax);
    if (!terms.includes(term)) terms.push(term);
    if (terms.length === DISCOVERY.termsMax) break;
  }
  return terms;
}

/**
 * How well a title (with its genre) matches a search query: 0 when some query
 * term is not the prefix of a word of the title or genre; otherwise 1 (every
 * term prefixes a word), 2 (the title starts with the query) or 3 (the title
 * is the query), compared after `normalizeText`.
 */
export function matchRank(query: string, title: string, genre = ""): number {
  return createMatcher(query)(title, genre);
}

/** What search ranking reads of a title (with its genre), normalised once: the term index stores it. */
export interface SearchFields {
  /** `searchTerms` of the title and genre. */
  words: readonly string[];
  /** `normalizeText` of the title alone. */
  title: string;
}

/** The `SearchFields` of a title and its genre. */
export function searchFields(title: string, genre = ""): SearchFields {
  return { words: searchTerms(genre ? `${title} ${genre}` : title), title: normalizeText(title) };
}

/** `matchRank` for one query and many titles: the query is cut into terms once. */
export function createMatcher(query: string): (title: string, genre?: string) => number {
  const rank = createFieldMatcher(query);
  return (title, genre = "") => rank(searchFields(title, genre));
}

/** `matchRank` on titles already cut into `SearchFields`: no normalisation per title. */
export function createFieldMatcher(query: string): (fields: SearchFields) => number {
  const terms = searchTerms(query);
  const q = normalizeText(query);
  // Plain loops: this runs once per search candidate (thousands per query).
  return ({ words, title }) => {
    if (terms.length === 0) return 0;
    // Query terms and words are cut to the same length, so a prefix test covers long words too.
    for (const term of terms) {
      let found = false;
      for (const word of words) {
        if (word.startsWith(term)) {
          found = true;
          break;
        }
      }
      if (!found) return 0;
    }
    if (title === q) return 3;
    if (title.startsWith(q)) return 2;
    return 1;
  };
}

/**
 * The score `top_rated` sorts by: the lower bound of the 95 % Wilson score
 * interval of the share of up votes. Many votes and a high share both raise
 * it, so one lone up vote does not beat a thousand votes at 95 %. 0 with no votes.
 */
export function ratingScore(upVotes: number, downVotes: number): number {
  const n = upVotes + downVotes;
  if (n <= 0) return 0;
  const z = 1.959963984540054;
  const p = upVotes / n;
  const z2 = z * z;
  const bound = (p + z2 / (2 * n) - z * Math.sqrt((p * (1 - p) + z2 / (4 * n)) / n)) / (1 + z2 / n);
  // Rounded so that equal vote counts give bit-equal index keys on every platform.
  return Math.max(0, Math.round(bound * 1e12) / 1e12);
}

/*
 * Name search (SearchUsers, SearchGroups): case-insensitive prefix and
 * substring matching, ranked. The rule is defined here on one name, so the
 * indexed search of the server and a plain scan give the same answer:
 *
 *   tier 0  the name key equals the query
 *   tier 1  the name key starts with it                  (by name key)
 *   tier 2  a word of the names starts with it           (by that word)
 *   tier 3  the name key holds it further in             (by the rest of the key from the match;
 *           queries of SUBSTRING_MIN characters or more)
 *
 * Ties break by id. A name matches at its best tier only.
 */

export const SearchTier = { Exact: 0, Prefix: 1, Word: 2, Substring: 3 } as const;
export type SearchTier = (typeof SearchTier)[keyof typeof SearchTier];

/** A name's match of a query: its tier and the text it sorts by within the tier. */
export interface SearchMatch {
  tier: SearchTier;
  text: string;
}

/** A query as names are compared: trimmed, lowercased, inner spaces collapsed. */
export function normalizeQuery(query: string): string {
  return query.trim().toLowerCase().replace(/\s+/g, " ");
}

/** The words of a user's or a group's names, lowercased: runs of letters and digits, and the whole display name. */
export function nameWords(names: readonly string[]): string[] {
  const words = new Set<string>();
  for (const name of names) {
    const key = normalizeQuery(name);
    if (!key) continue;
    words.add(key);
    for (const word of key.split(/[^\p{L}\p{N}]+/u)) if (word) words.add(word);
  }
  return [...words];
}

/** Substring matches (tier 3) need a query of at least this many characters: shorter ones match nearly every name. */
export const SUBSTRING_MIN = 2;

/** The suffixes of a name key that start after its first character and are at least SUBSTRING_MIN long: tier 3 looks them up. */
export function nameSuffixes(nameKey: string): string[] {
  const chars = [...nameKey];
  const suffixes = new Set<string>();
  for (let i = 1; i <= chars.length - SUBSTRING_MIN; i++) suffixes.add(chars.slice(i).join(""));
  return [...suffixes];
}

/** The search terms to index for a name key and its other names: `s` suffixes, `w` words. */
export function searchTermsOf(nameKey: string, otherNames: readonly string[]): { tag: "s" | "w"; term: string }[] {
  return [
    ...nameSuffixes(nameKey).map((term) => ({ tag: "s" as const, term })),
    ...nameWords([nameKey, ...otherNames]).filter((w) => w !== nameKey).map((term) => ({ tag: "w" as const, term })),
  ];
}

/** How a name matches a normalized query, or null when it does not. */
export function matchName(query: string, nameKey: string, otherNames: readonly string[]): SearchMatch | null {
  if (!query) return null;
  if (nameKey === query) return { tier: SearchTier.Exact, text: nameKey };
  if (nameKey.startsWith(query)) return { tier: SearchTier.Prefix, text: nameKey };
  let best: string | null = null;
  for (const word of nameWords([nameKey, ...otherNames])) {
    if (word !== nameKey && word.startsWith(query) && (best === null || word < best)) best = word;
  }
  if (best !== null) return { tier: SearchTier.Word, text: best };
  for (const suffix of nameSuffixes(nameKey)) {
    if (suffix.startsWith(query) && (best === null || suffix < best)) best = suffix;
  }
  return best === null ? null : { tier: SearchTier.Substring, text: best };
}

/** Orders matches best first: by tier, then text, then id. */
export function compareMatches(a: SearchMatch & { id: string }, b: SearchMatch & { id: string }): number {
  if (a.tier !== b.tier) return a.tier - b.tier;
  if (a.text !== b.text) return a.text < b.text ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

import {
  createMatcher, cursorOf, DISCOVERY, fail, genreKey, matchRank, ratingScore, tables,
  type CatalogService, type ExperienceRow, type MethodRequest, type PlayRow, type Query, type Tx,
} from "@playfield/core";
import { visibleTo } from "./access.js";
import { compareByVisits, searchExperiences } from "./search.js";
import { playersNow, playersNowOf } from "./players-now.js";
import { friendIds } from "../social/graph.js";

/*
 * ListExperiences: every sort, each defined in docs/catalog.md. Public sorts
 * read an index kept by the experience rows themselves (visits, rating,
 * creation time, genre) and stop as soon as `limit` rows pass the filters;
 * personal sorts start from the caller's own rows (plays, testers, friends).
 */

type ListRequest = MethodRequest<typeof CatalogService.methods.listExperiences>;

export type Sort = "popular" | "new" | "top_rated" | "friends" | "search" | "recent" | "up_and_coming" | "trending" | "testing";

interface Discovery {
  tx: Tx;
  viewerId: string | null;
  now: number;
  genre: string;
  limit: number;
  /** Every filter of the request but visibility: genre, query (outside `search`) and creator. */
  keep: (row: ExperienceRow) => boolean;
}

/** Rows of an index in order, read in pages, at most `max`. */
async function* walk(tx: Tx, index: string, query: Query, max = Infinity): AsyncGenerator<ExperienceRow> {
  const page = 100;
  let after: Query["after"];
  let read = 0;
  while (read < max) {
    const rows = await tx.query(tables.experiences, index, { ...query, limit: Math.min(page, max - read), ...(after ? { after } : {}) });
    for (const row of rows) yield row;
    read += rows.length;
    if (rows.length < page) return;
    after = cursorOf(tables.experiences, index, rows[rows.length - 1]!);
  }
}

async function take(rows: AsyncIterable<ExperienceRow>, d: Discovery, skip?: Set<string>): Promise<ExperienceRow[]> {
  const out: ExperienceRow[] = [];
  if (d.limit === 0) return out;
  for await (const row of rows) {
    if (skip?.has(row.id) || !d.keep(row)) continue;
    out.push(row);
    if (out.length === d.limit) break;
  }
  return out;
}

/** Public rows most visited first (the genre's own index when a genre is asked). */
const byVisits = (d: Discovery, max?: number) =>
  d.genre ? walk(d.tx, "publicByGenreVisits", { equals: [d.genre], order: "desc" }, max) : walk(d.tx, "publicByVisits", { order: "desc" }, max);

/** `popular`: most players right now, then most visits. */
async function popular(d: Discovery): Promise<ExperienceRow[]> {
  const players = await playersNow(d.tx);
  const playing = (await d.tx.getMany(tables.experiences, [...players.keys()]))
    .filter((row) => row !== undefined && row.visibility === "public" && (!d.genre || genreKey(row.genre) === d.genre) && d.keep(row)) as ExperienceRow[];
  playing.sort((a, b) => players.get(b.id)! - players.get(a.id)! || compareByVisits(a, b));
  if (playing.length >= d.limit) return playing.slice(0, d.limit);
  const rest = await take(byVisits(d), { ...d, limit: d.limit - playing.length }, new Set(players.keys()));
  return [...playing, ...rest];
}

/** `new`: newest public first. */
const newest = (d: Discovery) =>
  take(d.genre ? walk(d.tx, "publicByGenreCreated", { equals: [d.genre], order: "desc" }) : walk(d.tx, "byVisibility", { equals: ["public"], order: "desc" }), d);

/** `top_rated`: by ratingScore (Wilson lower bound of the up share), then up votes. */
const topRated = (d: Discovery) =>
  take(walk(d.tx, "publicByRating", { order: "desc" }, d.genre ? DISCOVERY.filteredWalkMax : Infinity), {
    ...d,
    keep: (row) => (!d.genre || genreKey(row.genre) === d.genre) && d.keep(row),
  });

/**
 * The `limit` public rows with the most joins since `since` (at least one):
 * the window's plays are one range of `plays.byTime`, tallied per experience.
 * When `young` bounds the experiences by creation time and there are fewer of
 * those than plays in the window, each young experience's joins are counted
 * instead (a count per experience, O(log n) each).
 */
async function mostJoined(d: Discovery, since: number, young?: number): Promise<ExperienceRow[]> {
  if (d.limit === 0) return [];
  const eligible = (row: ExperienceRow) =>
    row.visibility === "public" && (!d.genre || genreKey(row.genre) === d.genre) && (young === undefined || row.createdAt >= young) && d.keep(row);
  const best: { row: ExperienceRow; joins: number }[] = [];
  const window = { range: { gte: since } };
  const fewerRows = young !== undefined &&
    (await d.tx.count(tables.experiences, "byVisibility", { equals: ["public"], range: { gte: young } })) < (await d.tx.count(tables.plays, "byTime", window));
  if (fewerRows) {
    for (const row of await d.tx.query(tables.experiences, "byVisibility", { equals: ["public"], range: { gte: young } })) {
      if (!eligible(row)) continue;
      const joins = await d.tx.count(tables.plays, "byExperience", { equals: [row.id], ...window });
      if (joins > 0) best.push({ row, joins });
    }
  } else {
    const tally = new Map<string, number>();
    for (const play of await d.tx.query(tables.plays, "byTime", window)) tally.set(play.experienceId, (tally.get(play.experienceId) ?? 0) + 1);
    const rows = await d.tx.getMany(tables.experiences, [...tally.keys()]);
    for (const row of rows) if (row && eligible(row)) best.push({ row, joins: tally.get(row.id)! });
  }
  best.sort((a, b) => b.joins - a.joins || b.row.createdAt - a.row.createdAt || compareByVisits(a.row, b.row));
  return best.slice(0, d.limit).map((entry) => entry.row);
}

/** `trending`: most joins in the last day. */
const trending = (d: Discovery) => mostJoined(d, d.now - DISCOVERY.trendingWindowMs);

/** `up_and_coming`: experiences at most 30 days old with the most joins over the last 7 days. */
const upAndComing = (d: Discovery) =>
  mostJoined(d, d.now - DISCOVERY.upAndComingWindowMs, d.now - DISCOVERY.upAndComingMaxAgeMs);

/** Loads experiences by id in the given order, keeping those the viewer may see and the filters keep: two reads, however many ids. */
async function visibleInOrder(d: Discovery, ids: Iterable<string>): Promise<ExperienceRow[]> {
  const rows = (await d.tx.getMany(tables.experiences, [...ids]))
    .filter((row) => row !== undefined && d.keep(row) && (!d.genre || genreKey(row.genre) === d.genre)) as ExperienceRow[];
  const seen = await visibleTo(d.tx, rows, d.viewerId);
  return rows.filter((_, i) => seen[i]).slice(0, d.limit);
}

/** `recent`: what the caller played, most recent play first. */
async function recent(d: Discovery): Promise<ExperienceRow[]> {
  if (d.viewerId === null) return [];
  const plays = await d.tx.query(tables.plays, "byUser", { equals: [d.viewerId], order: "desc", limit: DISCOVERY.recentPlaysRead });
  return visibleInOrder(d, new Set(plays.map((play) => play.experienceId)));
}

/** `testing`: what the caller tests, latest added first. */
async function testing(d: Discovery): Promise<ExperienceRow[]> {
  if (d.viewerId === null) return [];
  const rows = await d.tx.query(tables.experienceTesters, "byUser", { equals: [d.viewerId], order: "desc" });
  return visibleInOrder(d, rows.map((row) => row.experienceId));
}

/** Plays the window's scan reads at most instead of one query per friend. */
const FRIENDS_WINDOW_SCAN_MAX = 5_000;
/** Plays of one friend counted at most. */
const PLAYS_PER_FRIEND = 200;

/**
 * Each friend's plays since `since`, newest first, at most PLAYS_PER_FRIEND:
 * when the window holds few plays, one read of them all (two round trips
 * whatever the number of friends); else one query per friend.
 */
async function friendsPlays(tx: Tx, friendIds: readonly string[], since: number): Promise<Map<string, PlayRow[]>> {
  const plays = new Map<string, PlayRow[]>();
  if (friendIds.length === 0) return plays;
  const window = { range: { gte: since } };
  if ((await tx.count(tables.plays, "byTime", { ...window, cap: FRIENDS_WINDOW_SCAN_MAX + 1 })) <= FRIENDS_WINDOW_SCAN_MAX) {
    const friends = new Set(friendIds);
    // byTime descending orders a user's plays as their byUser index does: by time, then id, both reversed.
    for (const play of await tx.query(tables.plays, "byTime", { ...window, order: "desc" })) {
      if (!friends.has(play.userId)) continue;
      const list = plays.get(play.userId) ?? [];
      if (list.length < PLAYS_PER_FRIEND) list.push(play);
      plays.set(play.userId, list);
    }
    return plays;
  }
  for (const friendId of friendIds) {
    plays.set(friendId, await tx.query(tables.plays, "byUser", { equals: [friendId], ...window, order: "desc", limit: PLAYS_PER_FRIEND }));
  }
  return plays;
}

/** `friends`: what the caller's friends played over the last 7 days, by how many friends, then by the latest play. */
async function friends(d: Discovery): Promise<ExperienceRow[]> {
  if (d.viewerId === null) return [];
  const since = d.now - DISCOVERY.friendsWindowMs;
  const tally = new Map<string, { friends: number; last: number }>();
  const friendList = (await friendIds(d.tx, d.viewerId)).slice(0, 1000);
  for (const plays of (await friendsPlays(d.tx, friendList, since)).values()) {
    const seen = new Set<string>();
    for (const play of plays) {
      const entry = tally.get(play.experienceId) ?? { friends: 0, last: 0 };
      if (!seen.has(play.experienceId)) entry.friends += 1;
      seen.add(play.experienceId);
      entry.last = Math.max(entry.last, play.joinedAt);
      tally.set(play.experienceId, entry);
    }
  }
  const ids = [...tally.entries()].sort(([a, x], [b, y]) => y.friends - x.friends || y.last - x.last || (a < b ? -1 : 1)).map(([id]) => id);
  return visibleInOrder(d, ids);
}

/** One creator's experiences in a public sort's order, computed in memory (a creator has few). */
async function creatorSorted(d: Discovery, sort: Sort, query: string, rows: ExperienceRow[]): Promise<ExperienceRow[]> {
  const score = new Map<string, number[]>();
  const playing = sort === "popular" ? await playersNowOf(d.tx, rows.map((row) => row.id)) : [];
  for (const [i, row] of rows.entries()) {
    switch (sort) {
      case "popular": score.set(row.id, [playing[i]!, row.visits]); break;
      case "new": score.set(row.id, [row.createdAt]); break;
      case "top_rated": score.set(row.id, [ratingScore(row.upVotes, row.downVotes), row.upVotes]); break;
      case "search": score.set(row.id, [matchRank(query, row.title, row.genre), row.visits]); break;
      case "trending":
      case "up_and_coming": {
        const window = sort === "trending" ? DISCOVERY.trendingWindowMs : DISCOVERY.upAndComingWindowMs;
        const young = sort === "trending" || row.createdAt >= d.now - DISCOVERY.upAndComingMaxAgeMs;
        const joins = young ? await d.tx.count(tables.plays, "byExperience", { equals: [row.id], range: { gte: d.now - window } }) : 0;
        score.set(row.id, [joins]);
        break;
      }
      default: score.set(row.id, [0]);
    }
  }
  const positive = sort === "search" || sort === "trending" || sort === "up_and_coming";
  const kept = positive ? rows.filter((row) => score.get(row.id)![0]! > 0) : rows;
  const compare = (a: ExperienceRow, b: ExperienceRow) => {
    const x = score.get(a.id)!, y = score.get(b.id)!;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return y[i]! - x[i]!;
    return compareByVisits(a, b);
  };
  return kept.sort(compare).slice(0, d.limit);
}

/** The sort a request asks for: `""` is `popular`, or `search` when a query is given. */
export function sortOf(req: ListRequest): Sort {
  if (req.sort !== "") return req.sort as Sort;
  return req.query.trim() === "" ? "popular" : "search";
}

/** ListExperiences' rows, in the order of the request's sort. */
export async function discover(tx: Tx, req: ListRequest, viewerId: string | null, now: number, limit: number): Promise<ExperienceRow[]> {
  const sort = sortOf(req);
  const query = req.query.trim();
  if (sort === "search" && matchRank(query, query) === 0) throw fail.invalid("query: words to search for are required with sort search");
  const genre = genreKey(req.genre);
  const creatorId = req.creatorId;
  // The query filters every sort but `search`, which ranks by it.
  const queryFilter = sort !== "search" && query !== "";
  const matches = createMatcher(query);
  const keep = (row: ExperienceRow) =>
    (creatorId === "" || row.creatorId === creatorId) && (!queryFilter || matches(row.title, row.genre) > 0);
  const d: Discovery = { tx, viewerId, now, genre, limit, keep };

  const personal = sort === "recent" || sort === "testing" || sort === "friends";
  if (creatorId !== "" && !personal) {
    // A creator's public experiences; all of them when the creator asks.
    const own = creatorId === viewerId;
    const rows = (await tx.query(tables.experiences, "byCreator", { equals: [creatorId], order: "desc", limit: 1000 }))
      .filter((row) => (own || row.visibility === "public") && (!genre || genreKey(row.genre) === genre) && keep(row));
    return creatorSorted(d, sort, query, rows);
  }
  switch (sort) {
    case "popular": return popular(d);
    case "new": return newest(d);
    case "top_rated": return topRated(d);
    case "trending": return trending(d);
    case "up_and_coming": return upAndComing(d);
    case "search": return searchExperiences(tx, query, genre, (row) => (!genre || genreKey(row.genre) === genre) && keep(row), limit);
    case "recent": return recent(d);
    case "testing": return testing(d);
    case "friends": return friends(d);
  }
}

/*
 * Discovery over 10,000 public experiences: ListExperiences `popular` and
 * `search` (and `top_rated`, `trending`, `up_and_coming`) through the in-process handler,
 * against a plain array sort / filter of the same rows measured in the same
 * run. Rows are written straight to storage, as CatalogService writes them
 * (search terms included), with visits, votes and open sessions spread over them.
 *
 *   node --conditions=@playfield/source --import tsx bench/catalog.bench.ts
 */
import { createMatcher, searchFields, tables, type ExperienceRow, type PlayRow } from "@playfield/core";
import { createMemoryServer } from "@playfield/server-memory";
import { formatDuration, medianMs } from "./lib/measure.js";

const COUNT = 10_000;
const WORDS = ["castle", "dragon", "obby", "race", "tycoon", "space", "zombie", "pirate", "ninja", "farm", "city", "quest", "islands", "escape", "horror", "simulator"];
const GENRES = ["adventure", "racing", "strategy", "horror", "casual", "rpg"];

const server = createMemoryServer({ environment: "test" });
const owner = await server.seed.user();
let seed = 42;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const now = server.clock.now();
const rows: ExperienceRow[] = [];
const plays: PlayRow[] = [];
for (let i = 0; i < COUNT; i++) {
  const title = `${WORDS[Math.floor(random() * WORDS.length)]} ${WORDS[Math.floor(random() * WORDS.length)]} ${i}`;
  rows.push({
    id: `exp_${i}`, creatorId: owner.userId, title, description: "", genre: GENRES[i % GENRES.length]!, thumbnailUrl: "",
    visibility: "public", hostingTier: "edge", maxPlayers: 20, startPlaceId: `plc_${i}`, liveVersionId: null,
    createdAt: now - i * 60_000, updatedAt: now, visits: Math.floor(random() ** 3 * 1_000_000),
    favorites: 0, upVotes: Math.floor(random() * 500), downVotes: Math.floor(random() * 100),
  });
}
await server.deps.storage.transact(async (tx) => {
  for (const row of rows) {
    await tx.put(tables.experiences, row);
    const fields = searchFields(row.title, row.genre);
    for (const term of fields.words) await tx.put(tables.experienceTerms, { id: `${term}:${row.id}`, term, experienceId: row.id, words: [...fields.words], title: fields.title });
  }
  // 200 open sessions and 2,000 plays in the last day, on random experiences.
  for (let i = 0; i < 200; i++) {
    const row = rows[Math.floor(random() * COUNT)]!;
    await tx.put(tables.gameSessions, { id: `gs_${i}`, experienceId: row.id, placeVersionId: "ver", hostingTier: "edge", maxPlayers: 20, hostUserId: null, memberCount: 1 + Math.floor(random() * 19), createdAt: now, closedAt: null });
  }
  for (let i = 0; i < 2_000; i++) {
    const row = rows[Math.floor(random() ** 2 * COUNT)]!;
    const play = { id: `ply_${i}`, experienceId: row.id, userId: `usr_${i}`, sessionId: "gs", joinedAt: now - Math.floor(random() * 86_000_000), leftAt: null };
    plays.push(play);
    await tx.put(tables.plays, play);
  }
});

const call = async (body: object) => {
  const response = await server.handle(new Request("http://playfield.test/svc.platform.v1.CatalogService/ListExperiences", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  }));
  if (response.status !== 200) throw new Error(await response.text());
  const answer = (await response.json()) as { experiences: unknown[] };
  if (answer.experiences.length === 0) throw new Error(`no results for ${JSON.stringify(body)}`);
};

// Baselines: the same answers computed from a plain array of the rows (no storage, no HTTP, no rendering).
const popularArray = () => [...rows].sort((a, b) => b.visits - a.visits).slice(0, 20);
const searchArray = (query: string) => {
  const matches = createMatcher(query);
  return rows.filter((row) => matches(row.title, row.genre) > 0).sort((a, b) => b.visits - a.visits).slice(0, 20);
};

/** Most joined over the plays array (every bench play is in the last day and every experience younger than 30 days). */
const joinedArray = () => {
  const joins = new Map<string, number>();
  for (const play of plays) joins.set(play.experienceId, (joins.get(play.experienceId) ?? 0) + 1);
  return [...joins.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20);
};

const cases: [string, () => unknown, () => unknown][] = [
  ["popular, limit 20", () => call({ sort: "popular" }), popularArray],
  ["popular, limit 100", () => call({ sort: "popular", limit: 100 }), () => [...rows].sort((a, b) => b.visits - a.visits).slice(0, 100)],
  ["popular, genre racing", () => call({ sort: "popular", genre: "racing" }), () => rows.filter((r) => r.genre === "racing").sort((a, b) => b.visits - a.visits).slice(0, 20)],
  ["search \"castle\" (1 common term)", () => call({ sort: "search", query: "castle" }), () => searchArray("castle")],
  ["search \"dragon ninja\" (2 terms)", () => call({ sort: "search", query: "dragon ninja" }), () => searchArray("dragon ninja")],
  ["search \"tyc\" (prefix)", () => call({ sort: "search", query: "tyc" }), () => searchArray("tyc")],
  ["top_rated", () => call({ sort: "top_rated" }), () => [...rows].sort((a, b) => b.upVotes / (b.upVotes + b.downVotes + 1) - a.upVotes / (a.upVotes + a.downVotes + 1)).slice(0, 20)],
  ["trending", () => call({ sort: "trending" }), joinedArray],
  ["up_and_coming", () => call({ sort: "up_and_coming" }), joinedArray],
];

console.log(`\n### ListExperiences over ${COUNT.toLocaleString("en")} public experiences, in process (median of 31)\n`);
console.log("| case | ListExperiences through server.handle | baseline: plain array sort/filter of the rows | ratio |");
console.log("|---|---:|---:|---:|");
for (const [name, op, baseline] of cases) {
  for (let i = 0; i < 30; i++) await op();
  const ms = await medianMs(op, 31);
  const baseMs = await medianMs(baseline, 31);
  console.log(`| ${name} | ${formatDuration(ms)} | ${formatDuration(baseMs)} | ${(ms / baseMs).toFixed(2)} |`);
}

/*
 * SearchUsers over 100,000 users, in process (`server.handle`, no socket).
 *
 * 1. Building the search index for users loaded in bulk (direct puts, as an
 *    import does, bypassing saveUser): the first search after the load
 *    builds it. Time and retained heap (heap + array buffers, after a full
 *    GC), against a baseline in the same run: building a plain Map from
 *    name to id of the same users. Each build runs on a fresh server
 *    (BENCH_BUILDS of them, median time).
 * 2. SearchUsers after that bulk build: exact name, a common prefix, a
 *    display-name word, a substring, and a query that matches nobody,
 *    against a plain scan of the 100,000 lowercased names in an array (the
 *    least a search without an index must do).
 * 3. The first search after a sign-up (saveUser indexes it as it writes).
 *
 *   node --conditions=@playfield/source --import tsx bench/social.bench.ts
 */
import v8 from "node:v8";
import vm from "node:vm";
import { tables, usernameKey, type UserRow } from "@playfield/core";
import { createMemoryServer, type MemoryServer } from "@playfield/server-memory";
import { formatDuration, measure, printTable, timeOnce } from "./lib/measure.js";

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const BUILDS = Number(process.env.BENCH_BUILDS ?? 3);
const FIRST = ["ada", "sam", "max", "kai", "lea", "noa", "ivy", "zoe", "eli", "ray", "jun", "mia"];
const SECOND = ["storm", "pixel", "river", "stone", "ember", "frost", "blaze", "cloud", "raven", "tiger", "comet", "maple"];
const SURNAMES = ["Smith", "Garcia", "Nguyen", "Okafor", "Kowalski", "Tanaka", "Silva", "Haddad", "Novak", "Larsen"];
const settings = { whoCanMessage: "everyone", whoCanFriend: "everyone", whoCanJoin: "everyone", showOnlineStatus: true, emailNotifications: true, theme: "system" } as const;

/** A full garbage collection, so heap figures count live data only. */
const gc = (() => {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
})();

/** Live bytes: the JS heap and array buffers (typed arrays keep their bytes outside the heap). */
function liveBytes(): number {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const rows: UserRow[] = [];
for (let i = 0; i < USERS; i++) {
  const username = `${FIRST[i % 12]}${SECOND[Math.floor(i / 12) % 12]}${i}`;
  rows.push({
    id: `usr_${i.toString(36).padStart(6, "0")}`, username, usernameKey: usernameKey(username),
    displayName: `${FIRST[(i * 7) % 12]!.toUpperCase()} ${SURNAMES[i % 10]}`, passwordHash: null, birthdate: "1990-01-01",
    guest: false, createdAt: i, deletedAt: null, settings,
  });
}
const names = rows.map((row) => row.usernameKey);

const url = "http://playfield.test/svc.platform.v1.SocialService/SearchUsers";
const searchOn = (server: MemoryServer) => async (query: string) => {
  const response = await server.handle(new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, limit: 20 }) }));
  if (response.status !== 200) throw new Error(await response.text());
  return (await response.json()) as { users?: unknown[] };
};

/** A server holding every user, written in one transaction with no saveUser (a bulk import). */
async function bulkLoaded(): Promise<MemoryServer> {
  const server = createMemoryServer({ environment: "production" });
  await server.deps.storage.transact(async (tx) => {
    for (const row of rows) await tx.put(tables.users, row);
  });
  return server;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const perUser = (bytes: number) => `${Math.round(bytes / USERS)} B`;

// --- 1. Building the index -------------------------------------------------

/** Baseline: builds a Map from name to id of the same users (in a plain function, so no stale reference outlives it). */
function mapBuild(): { ms: number; bytes: number } {
  const before = liveBytes();
  const start = performance.now();
  const map = new Map<string, string>();
  for (const row of rows) map.set(row.usernameKey, row.id);
  const ms = performance.now() - start;
  const bytes = liveBytes() - before;
  if (map.size !== USERS) throw new Error("names are not distinct");
  return { ms, bytes };
}

/** The first search on a fresh bulk-loaded server: the time and the bytes it leaves live (the index). */
async function indexBuild(): Promise<{ ms: number; bytes: number; server: MemoryServer }> {
  const loaded = await bulkLoaded();
  const before = liveBytes();
  const ms = await timeOnce(() => searchOn(loaded)("ada"));
  return { ms, bytes: liveBytes() - before, server: loaded };
}

const maps = Array.from({ length: 5 }, mapBuild);
const mapTimes = maps.map((m) => m.ms);
const mapBytes = median(maps.map((m) => m.bytes));
const buildTimes: number[] = [];
const buildBytes: number[] = [];
let server: MemoryServer | null = null;
for (let i = 0; i < BUILDS; i++) {
  const build = await indexBuild();
  buildTimes.push(build.ms);
  buildBytes.push(build.bytes);
  server = build.server;
}
const mapMs = median(mapTimes);
const buildMs = median(buildTimes);
console.log(`\n### Search index for ${USERS.toLocaleString("en")} users loaded in bulk (time: median of ${BUILDS} builds, 5 Map builds; heap + array buffers after a full GC)\n`);
console.log("| case | time | vs Map | retained | per user | vs Map |");
console.log("|---|---:|---:|---:|---:|---:|");
console.log(`| Map from name to id (baseline) | ${formatDuration(mapMs)} | 1.00 | ${mb(mapBytes)} | ${perUser(mapBytes)} | 1.00 |`);
console.log(`| first SearchUsers after the load (builds the index) | ${formatDuration(buildMs)} | ${(buildMs / mapMs).toFixed(1)} | ${mb(median(buildBytes))} | ${perUser(median(buildBytes))} | ${(median(buildBytes) / mapBytes).toFixed(2)} |`);

// --- 2. SearchUsers after the bulk build ----------------------------------

const search = searchOn(server!);
let sink = 0;
const baseline = await measure(`scan of ${USERS.toLocaleString("en")} names in an array (baseline)`, () => {
  let hits = 0;
  for (const name of names) if (name.includes("zq")) hits++;
  sink += hits;
});

const cases: [string, string][] = [
  ["exact username", "samriver1"],
  ["common prefix (tier 1)", "adastorm"],
  ["display-name word (tier 2)", "okafor"],
  ["substring (tier 3)", "iver12"],
  ["no match", "zzqx"],
];
const figures = [baseline];
for (const [name, query] of cases) {
  const found = (await search(query)).users?.length ?? 0;
  const figure = await measure(`SearchUsers: ${name}, "${query}"`, () => search(query));
  figure.extra = { results: String(found) };
  figures.push(figure);
}
printTable(`SearchUsers over ${USERS.toLocaleString("en")} users after the bulk build, in process (limit 20)`, figures, baseline);

// --- 3. After a sign-up ----------------------------------------------------

const afterSignUp: number[] = [];
for (let i = 0; i < 5; i++) {
  await server!.seed.user({ username: `late_${i}` });
  afterSignUp.push(await timeOnce(() => search("late")));
}
console.log(`\nFirst search after a sign-up (saveUser indexed it), median of 5: ${formatDuration(median(afterSignUp))} (${(median(afterSignUp) / (1000 / baseline.rate)).toFixed(2)}× the baseline scan)${sink > 0 ? "." : ""}`);

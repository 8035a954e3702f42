/*
 * SearchUsers over 100,000 users, in process (`server.handle`, no socket):
 * exact name, a common prefix, a display-name word, a substring, and a
 * query that matches nobody, against a baseline measured in the same run:
 * a plain scan of the 100,000 lowercased names in an array (the least a
 * search without an index must do). Also the one-off indexing of 100,000
 * users and the heap it takes.
 *
 *   node --conditions=@playfield/source --import tsx bench/social.bench.ts
 */
import { tables, usernameKey, type UserRow } from "@playfield/core";
import { createMemoryServer } from "@playfield/server-memory";
import { formatDuration, measure, printTable, timeOnce } from "./lib/measure.js";

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const FIRST = ["ada", "sam", "max", "kai", "lea", "noa", "ivy", "zoe", "eli", "ray", "jun", "mia"];
const SECOND = ["storm", "pixel", "river", "stone", "ember", "frost", "blaze", "cloud", "raven", "tiger", "comet", "maple"];
const SURNAMES = ["Smith", "Garcia", "Nguyen", "Okafor", "Kowalski", "Tanaka", "Silva", "Haddad", "Novak", "Larsen"];

const server = createMemoryServer({ environment: "production" });
const settings = { whoCanMessage: "everyone", whoCanFriend: "everyone", whoCanJoin: "everyone", showOnlineStatus: true, emailNotifications: true, theme: "system" } as const;

const names: string[] = [];
await server.deps.storage.transact(async (tx) => {
  for (let i = 0; i < USERS; i++) {
    const username = `${FIRST[i % 12]}${SECOND[Math.floor(i / 12) % 12]}${i}`;
    const row: UserRow = {
      id: `usr_${i.toString(36).padStart(6, "0")}`, username, usernameKey: usernameKey(username),
      displayName: `${FIRST[(i * 7) % 12]!.toUpperCase()} ${SURNAMES[i % 10]}`, passwordHash: null, birthdate: "1990-01-01",
      guest: false, createdAt: i, deletedAt: null, settings,
    };
    names.push(row.usernameKey);
    await tx.put(tables.users, row);
  }
});

const url = "http://playfield.test/svc.platform.v1.SocialService/SearchUsers";
const search = async (query: string) => {
  const response = await server.handle(new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, limit: 20 }) }));
  if (response.status !== 200) throw new Error(await response.text());
  return (await response.json()) as { users?: unknown[] };
};

const heapBefore = process.memoryUsage().heapUsed;
const indexMs = await timeOnce(() => search("ada"));
const heapAfter = process.memoryUsage().heapUsed;

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
printTable(`SearchUsers over ${USERS.toLocaleString("en")} users, in process (limit 20)`, figures, baseline);

// A user written by another service (sign-up) is indexed by the next search, which must first find it: a scan of the users.
const catchUp: number[] = [];
for (let i = 0; i < 5; i++) {
  await server.seed.user({ username: `late_${i}` });
  catchUp.push(await timeOnce(() => search("late")));
}
catchUp.sort((a, b) => a - b);
console.log(`\nFirst search after a user is added outside SocialService (catch-up scan), median of 5: ${formatDuration(catchUp[2]!)} (${(catchUp[2]! / (1000 / baseline.rate)).toFixed(1)}× the baseline scan).`);
console.log(`\nFirst search (indexes every user once): ${formatDuration(indexMs)}; heap +${Math.round((heapAfter - heapBefore) / 1e6)} MB. (${sink > 0 ? "" : "."})`);

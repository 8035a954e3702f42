/*
 * Creator figures: GetOverview and GetExperienceAnalytics(30 days) in
 * process for a creator with 1,000 experiences and 1,000,000 recorded visits
 * (target: under 10 ms on every call, the first included: the per-day
 * aggregates are written with each play and sale), against the
 * authenticated GetMe of the same server. BuyItem over HTTP, against GetMe,
 * is in http.bench.ts.
 *
 *   node --expose-gc --conditions=@playfield/source --import tsx bench/economy.bench.ts
 */
import { tables, type ExperienceRow, type PlayRow } from "@playfield/core";
import { createMemoryServer, type MemoryServer } from "@playfield/server-memory";
import { recordPlayEnded, recordPlayStarted } from "../packages/server/src/services/creator/stats.js";
import { formatDuration, medianMs, timeOnce } from "./lib/measure.js";

const DAY = 86_400_000;

async function creatorWorld(server: MemoryServer, experiences: number) {
  const creator = await server.seed.user();
  const buyer = await server.seed.user();
  const now = server.clock.now();
  const rows: ExperienceRow[] = Array.from({ length: experiences }, (_, i) => ({
    id: `exp_${i}`, creatorId: creator.userId, title: `World ${i}`, description: "", genre: "", thumbnailUrl: "",
    visibility: i % 2 ? "public" : "draft", hostingTier: "edge", maxPlayers: 10, startPlaceId: "plc", liveVersionId: null,
    createdAt: now - 90 * DAY, updatedAt: now, visits: 0, favorites: i % 7, upVotes: 0, downVotes: 0,
  }));
  await server.deps.storage.transact(async (tx) => {
    for (const row of rows) await tx.put(tables.experiences, row);
    // The buyer tests the drafts: their items exist only for their creator and testers (docs/catalog.md).
    for (const row of rows) {
      if (row.visibility !== "public") await tx.put(tables.experienceTesters, { id: `${row.id}:${buyer.userId}`, experienceId: row.id, userId: buyer.userId, addedAt: now });
    }
  });
  await server.operator.wallets.grant(buyer.userId, 1_000_000_000_000);
  return { creator, buyer, rows };
}

const rpcBody = (token: string, body: unknown) => ({ method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

async function call(server: MemoryServer, token: string, path: string, body: unknown = {}): Promise<unknown> {
  const response = await server.handle(new Request(`http://playfield.test/svc.platform.v1.${path}`, rpcBody(token, body)));
  if (response.status !== 200) throw new Error(`${path}: ${await response.text()}`);
  return response.json();
}

// A creator with 1,000 experiences and 1,000,000 visits over 60 days.
const server = createMemoryServer({ environment: "production" });
const { creator, buyer, rows } = await creatorWorld(server, 1000);
const now = server.clock.now();
const VISITS = Number(process.env.BENCH_VISITS ?? 1_000_000);
const perExperience = VISITS / rows.length;
// One transaction per experience, as plays would arrive: one 1,000,000-play transaction is slower (its undo log grows to millions of records).
const loadMs = await timeOnce(async () => {
  for (const [e, row] of rows.entries()) await server.deps.storage.transact(async (tx) => {
    for (let i = 0; i < perExperience; i++) {
      const joinedAt = now - 60 * DAY + Math.floor((i / perExperience) * 60 * DAY) + e;
      const play: PlayRow = { id: `ply_${e}_${i}`, experienceId: row.id, userId: `usr_p${(e * 31 + i) % 20_000}`, sessionId: "gs", joinedAt, leftAt: joinedAt + 300_000 };
      await tx.put(tables.plays, play);
      await recordPlayStarted(tx, play, creator.userId);
      await recordPlayEnded(tx, play, play.leftAt!);
    }
    await tx.put(tables.experiences, { ...row, visits: perExperience });
  });
});
// Sales: game passes of 100 experiences, 20 sales each.
for (let e = 0; e < 100; e++) {
  const pass = await call(server, creator.accessToken, "EconomyService/CreateItem", { kind: "developer_product", name: `Pass ${e}`, price: 10, experienceId: `exp_${e}` }) as { id: string };
  for (let i = 0; i < 20; i++) await call(server, buyer.accessToken, "EconomyService/BuyItem", { itemId: pass.id, expectedPrice: 10 });
}
const firstOverviewMs = await timeOnce(() => call(server, creator.accessToken, "CreatorService/GetOverview"));
const getMeMs = await medianMs(() => call(server, creator.accessToken, "IdentityService/GetMe"), 201);
const overviewMs = await medianMs(() => call(server, creator.accessToken, "CreatorService/GetOverview"), 51);
// "Every call": the slowest of 51 more calls, not just the median.
let slowestOverviewMs = 0;
for (let i = 0; i < 51; i++) slowestOverviewMs = Math.max(slowestOverviewMs, await timeOnce(() => call(server, creator.accessToken, "CreatorService/GetOverview")));
// New plays on 10 experiences between overviews, recorded as SessionService does (aggregates included).
let extra = 0;
const overviewAfterPlaysMs = await medianMs(async () => {
  await server.deps.storage.transact(async (tx) => {
    for (let e = 0; e < 10; e++) {
      extra += 1;
      const play: PlayRow = { id: `ply_new_${extra}`, experienceId: `exp_${e}`, userId: "usr_new", sessionId: "gs", joinedAt: server.clock.now(), leftAt: null };
      await tx.put(tables.plays, play);
      await recordPlayStarted(tx, play, creator.userId);
      const row = (await tx.get(tables.experiences, `exp_${e}`))!;
      await tx.put(tables.experiences, { ...row, visits: row.visits + 1 });
    }
  });
  await call(server, creator.accessToken, "CreatorService/GetOverview");
}, 51);
const analyticsMs = await medianMs(() => call(server, creator.accessToken, "CreatorService/GetExperienceAnalytics", { experienceId: "exp_1", days: 30 }), 51);
console.log(`\n### In process: creator with 1,000 experiences and ${VISITS.toLocaleString("en")} visits (median; loading the plays and their aggregates took ${formatDuration(loadMs)})\n`);
console.log("| case | time | vs GetMe |");
console.log("|---|---:|---:|");
const row = (name: string, ms: number) => console.log(`| ${name} | ${formatDuration(ms)} | ${(ms / getMeMs).toFixed(1)} |`);
row("GetMe (baseline)", getMeMs);
row("GetOverview, first call (aggregates kept as plays are recorded)", firstOverviewMs);
row("GetOverview", overviewMs);
row("GetOverview, slowest of 51 calls", slowestOverviewMs);
row("GetOverview after 10 new plays (insert included)", overviewAfterPlaysMs);
row("GetExperienceAnalytics, 30 days (reads the aggregates of 1,000 plays in 60 days)", analyticsMs);

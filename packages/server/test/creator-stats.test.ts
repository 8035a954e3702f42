import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { averageSessionSeconds, day1Retention, dayKey, dayWindow, tables, visitsByDay } from "@playfield/core";
import { testServer, TRANSPORTS } from "./fixtures.js";
import { experience, player, recordPlay } from "./economy-fixtures.js";
import { addExperience } from "./session-world.js";

const DAY = 86_400_000;

describe("recordPlayStarted and recordPlayEnded", () => {
  it("should give the analytics the plays themselves give", async () => {
    const play = fc.record({
      user: fc.integer({ min: 0, max: 4 }),
      day: fc.integer({ min: 0, max: 12 }),
      offset: fc.integer({ min: 0, max: DAY - 1 }),
      length: fc.option(fc.integer({ min: 0, max: 7_200_000 }), { nil: null }),
    });
    await fc.assert(fc.asyncProperty(fc.array(play, { maxLength: 40 }), fc.integer({ min: 1, max: 14 }), async (plays, days) => {
      await using t = await testServer("in-process");
      t.server.clock.freeze();
      const maker = await player(t);
      const world = await experience(t, maker.user.userId);
      const now = t.server.clock.now();
      const today = Math.floor(now / DAY) * DAY;
      for (const p of plays) {
        const joinedAt = Math.min(today - p.day * DAY + p.offset, now);
        await recordPlay(t, world.id, `usr_p${p.user}`, joinedAt, p.length === null ? null : joinedAt + p.length);
      }
      const window = dayWindow(now, days);
      const stored = await t.server.deps.storage.transact((tx) => tx.query(tables.plays, "byExperience", { equals: [world.id], range: { gte: window.start } }));
      const expected = visitsByDay(stored);
      const a = await maker.client.creator.getExperienceAnalytics({ experienceId: world.id, days });
      expect(a.visits).toEqual(window.days.map((date) => ({ date, value: expected.visits.get(date) ?? 0 })));
      expect(a.uniquePlayers).toEqual(window.days.map((date) => ({ date, value: expected.uniquePlayers.get(date) ?? 0 })));
      expect(a.avgSessionSeconds).toBe(averageSessionSeconds(stored));
      expect(a.day1Retention).toBeCloseTo(day1Retention(stored, window), 10);
      const overview = await maker.client.creator.getOverview({});
      const lastMonth = visitsByDay(await t.server.deps.storage.transact((tx) => tx.query(tables.plays, "byExperience", { equals: [world.id], range: { gte: dayWindow(now, 30).start } })));
      expect(overview.visitsSeries.map((p) => p.value)).toEqual(dayWindow(now, 30).days.map((d) => lastMonth.visits.get(d) ?? 0));
      expect(overview.visitsTotal).toBe(plays.length);
    }), { numRuns: 25 });
  });
});

describe.each(TRANSPORTS)("analytics of plays recorded by SessionService (%s)", (kind) => {
  it("should count a join as a visit and a unique player, and its leave in the mean session length", async () => {
    await using t = await testServer(kind);
    t.server.clock.freeze();
    const maker = await player(t);
    const { experience: world } = await addExperience(t.server, { creatorId: maker.user.userId });
    const ada = await player(t);
    const day = dayKey(t.server.clock.now());
    const { sessionId } = await ada.client.session.join({ experienceId: world.id });
    await ada.client.session.join({ experienceId: world.id });
    t.server.clock.advance(30_000);
    await ada.client.session.leave({ sessionId });
    const a = await maker.client.creator.getExperienceAnalytics({ experienceId: world.id, days: 2 });
    const joinDay = a.visits.findIndex((p) => p.date === day);
    expect(a.visits.map((p) => p.value)).toEqual(a.visits.map((_, i) => (i === joinDay ? 1 : 0)));
    expect(a.uniquePlayers.map((p) => p.value)).toEqual(a.visits.map((_, i) => (i === joinDay ? 1 : 0)));
    expect(a.avgSessionSeconds).toBe(30);
    const overview = await maker.client.creator.getOverview({});
    expect(overview.visitsTotal).toBe(1);
    expect(overview.visits7d).toBe(1);
    expect(overview.visitsSeries.at(-1)!.value).toBe(1);
  });
});

describe("daily aggregates in shards", () => {
  it("should sum a day's shards, and the unsharded rows earlier versions wrote", async () => {
    await using t = await testServer("in-process");
    t.server.clock.freeze();
    const maker = await player(t);
    const world = await experience(t, maker.user.userId);
    const now = t.server.clock.now();
    const day = dayKey(now);
    // Rows as an earlier version kept them: one per creator (or experience) and day.
    await t.server.deps.storage.transact(async (tx) => {
      await tx.put(tables.creatorDaily, { id: `${maker.user.userId}:${day}`, creatorId: maker.user.userId, day, visits: 5, sales: 2, revenue: 70 });
      await tx.put(tables.experienceDaily, { id: `${world.id}:${day}`, experienceId: world.id, day, visits: 5, uniquePlayers: 3, endedPlays: 0, playMs: 0 });
    });
    const players = Array.from({ length: 20 }, (_, i) => `usr_p${i}`);
    for (const userId of players) await recordPlay(t, world.id, userId, now, null);
    const rows = await t.server.deps.storage.transact((tx) => tx.query(tables.creatorDaily, "byCreator", { equals: [maker.user.userId] }));
    // Twenty players spread over several rows, not one.
    expect(rows.length).toBeGreaterThan(2);
    const overview = await maker.client.creator.getOverview({});
    expect(overview.visitsSeries.at(-1)!.value).toBe(25);
    expect(overview.visits7d).toBe(25);
    expect(overview.sales7d).toBe(2);
    expect(overview.revenue7d).toBe(70);
    const a = await maker.client.creator.getExperienceAnalytics({ experienceId: world.id, days: 1 });
    expect(a.visits.at(-1)!.value).toBe(25);
    expect(a.uniquePlayers.at(-1)!.value).toBe(23);
  });
});

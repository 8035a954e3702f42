import { describe, expect, it } from "vitest";
import { Code, dayKey, tables } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { experience, player, recordPlay } from "./economy-fixtures.js";

const DAY = 86_400_000;

describe.each(TRANSPORTS)("CreatorService (%s)", (kind) => {
  describe("getOverview", () => {
    it("should count experiences, items, visits, players, favorites, earnings and 7-day sales from what was recorded", async () => {
      await using t = await testServer(kind);
      t.server.clock.freeze();
      const maker = await player(t);
      const fan = await player(t);
      const now = t.server.clock.now();
      const a = await experience(t, maker.user.userId, { favorites: 3 });
      const b = await experience(t, maker.user.userId, { visibility: "draft", favorites: 1 });
      await experience(t, fan.user.userId, { favorites: 50 });
      await recordPlay(t, a.id, fan.user.userId, now - 10 * DAY, now - 10 * DAY + 60_000);
      await recordPlay(t, a.id, fan.user.userId, now - 2 * DAY, now - 2 * DAY + 60_000);
      let overview = await maker.client.creator.getOverview();
      expect(overview.visitsTotal).toBe(2);
      expect(overview.visits7d).toBe(1);
      // Plays recorded after a first overview are counted too.
      await recordPlay(t, b.id, fan.user.userId, now, null);
      await recordPlay(t, a.id, maker.user.userId, now, null);
      await t.server.deps.storage.transact((tx) => tx.put(tables.gameSessions, {
        id: "gs_open", experienceId: a.id, placeVersionId: "ver_1", hostingTier: "edge", hostUserId: null, memberCount: 4, createdAt: now, closedAt: null,
      } as never));
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 100 });
      await maker.client.economy.createItem({ kind: "avatar_shirt", name: "Shirt", price: 5 });
      await t.server.operator.wallets.grant(fan.user.userId, 100);
      await fan.client.economy.buyItem({ itemId: hat.id, expectedPrice: 100 });
      overview = await maker.client.creator.getOverview();
      expect(overview).toMatchObject({
        experiences: 2, publicExperiences: 1, items: 2, visitsTotal: 4, visits7d: 3, playingNow: 4, favoritesTotal: 4,
        earnedAvailable: 0, earnedPending: 70, sales7d: 1, revenue7d: 70,
      });
      expect(overview.visitsSeries).toHaveLength(30);
      expect(overview.visitsSeries.at(-1)).toEqual({ date: dayKey(now), value: 2 });
      expect(overview.visitsSeries.find((p) => p.date === dayKey(now - 2 * DAY))?.value).toBe(1);
      expect(overview.visitsSeries.find((p) => p.date === dayKey(now - 10 * DAY))?.value).toBe(1);
      expect(overview.revenueSeries.at(-1)).toEqual({ date: dayKey(now), value: 70 });
      t.server.clock.advance(3 * DAY);
      overview = await maker.client.creator.getOverview();
      expect(overview).toMatchObject({ earnedAvailable: 70, earnedPending: 0, sales7d: 1, visits7d: 3 });
      t.server.clock.advance(5 * DAY);
      expect(await maker.client.creator.getOverview()).toMatchObject({ sales7d: 0, revenue7d: 0, visits7d: 0, visitsTotal: 4 });
    });
  });

  describe("getExperienceAnalytics", () => {
    it("should give daily visits, unique players, revenue, session length, day-1 retention and top items", async () => {
      await using t = await testServer(kind);
      t.server.clock.freeze();
      const maker = await player(t);
      const [p1, p2, p3] = [await player(t), await player(t), await player(t)];
      const world = await experience(t, maker.user.userId, { favorites: 7, upVotes: 5, downVotes: 1 });
      const today = Math.floor(t.server.clock.now() / DAY) * DAY;
      const d = (n: number) => today - n * DAY + 3_600_000;
      // Day -2: p1 twice and p2 play; day -1: p1 comes back, p3 starts.
      await recordPlay(t, world.id, p1!.user.userId, d(2), d(2) + 60_000);
      await recordPlay(t, world.id, p1!.user.userId, d(2) + 100_000, d(2) + 220_000);
      await recordPlay(t, world.id, p2!.user.userId, d(2), d(2) + 300_000);
      await recordPlay(t, world.id, p1!.user.userId, d(1), null);
      await recordPlay(t, world.id, p3!.user.userId, d(1), d(1) + 120_000);
      await recordPlay(t, world.id, p1!.user.userId, d(40), d(40) + 1000);
      const pass = await maker.client.economy.createItem({ kind: "game_pass", name: "VIP", price: 100, experienceId: world.id });
      const gems = await maker.client.economy.createItem({ kind: "developer_product", name: "Gems", price: 10, experienceId: world.id });
      await t.server.operator.wallets.grant(p1!.user.userId, 1000);
      await p1!.client.economy.buyItem({ itemId: pass.id, expectedPrice: 100 });
      for (let i = 0; i < 3; i++) await p1!.client.economy.buyItem({ itemId: gems.id, expectedPrice: 10 });
      const a = await maker.client.creator.getExperienceAnalytics({ experienceId: world.id, days: 7 });
      expect(a.visits.map((p) => p.value)).toEqual([0, 0, 0, 0, 3, 2, 0]);
      expect(a.uniquePlayers.map((p) => p.value)).toEqual([0, 0, 0, 0, 2, 2, 0]);
      expect(a.revenue.map((p) => p.value)).toEqual([0, 0, 0, 0, 0, 0, 70 + 3 * 7]);
      expect(a.visits.at(-1)!.date).toBe(dayKey(today));
      expect(a).toMatchObject({ experienceId: world.id, favorites: 7, upVotes: 5, downVotes: 1, playingNow: 0 });
      expect(a.avgSessionSeconds).toBe(Math.round((60 + 120 + 300 + 120) / 4));
      // First seen on day -2: p1 and p2; p1 came back on day -1. p3, first seen yesterday, is not judged before today is over.
      expect(a.day1Retention).toBe(50);
      expect(a.topItems).toEqual([
        { itemId: pass.id, name: "VIP", sales: 1, revenue: 70 },
        { itemId: gems.id, name: "Gems", sales: 3, revenue: 21 },
      ]);
      expect((await maker.client.creator.getExperienceAnalytics({ experienceId: world.id })).visits).toHaveLength(30);
    });

    it("should answer the creator only", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const other = await player(t);
      const world = await experience(t, maker.user.userId);
      const draft = await experience(t, maker.user.userId, { visibility: "draft" });
      await expectError(other.client.creator.getExperienceAnalytics({ experienceId: world.id }), Code.PermissionDenied, /^experienceId: /);
      await expectError(other.client.creator.getExperienceAnalytics({ experienceId: draft.id }), Code.NotFound, /^experienceId: /);
      await expectError(maker.client.creator.getExperienceAnalytics({ experienceId: "exp_none" }), Code.NotFound, /^experienceId: /);
      await expectError(maker.client.creator.getExperienceAnalytics({ experienceId: world.id, days: 91 }), Code.InvalidArgument, /^days: /);
    });
  });

  describe("listSales and listMyItems", () => {
    it("should list sales of the caller's items with the creator's share and hold status, newest first", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const buyer = await player(t);
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 100 });
      const shirt = await maker.client.economy.createItem({ kind: "avatar_shirt", name: "Shirt", price: 55 });
      await t.server.operator.wallets.grant(buyer.user.userId, 1000);
      await buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 100 });
      t.server.clock.advance(3 * DAY);
      await buyer.client.economy.buyItem({ itemId: shirt.id, expectedPrice: 55 });
      const { sales } = await maker.client.creator.listSales({});
      expect(sales.map((s) => [s.itemName, s.buyerName, s.price, s.earned, s.status])).toEqual([
        ["Shirt", buyer.user.username, 55, 38, "pending"],
        ["Hat", buyer.user.username, 100, 70, "available"],
      ]);
      expect((await maker.client.creator.listSales({ limit: 1 })).sales).toHaveLength(1);
      expect((await buyer.client.creator.listSales({})).sales).toEqual([]);
    });

    it("should list the caller's items, delisted ones included, by kind", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 1 });
      const shirt = await maker.client.economy.createItem({ kind: "avatar_shirt", name: "Shirt", price: 1 });
      await maker.client.economy.updateItem({ itemId: hat.id, status: "delisted" });
      expect((await maker.client.creator.listMyItems({})).items.map((i) => i.id)).toEqual([shirt.id, hat.id]);
      expect((await maker.client.creator.listMyItems({ kind: "avatar_hat" })).items.map((i) => i.id)).toEqual([hat.id]);
      expect((await (await player(t)).client.creator.listMyItems({})).items).toEqual([]);
    });
  });

  describe("listUploads", () => {
    it("should list the caller's uploads with today's use of the daily limit", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const empty = await maker.client.creator.listUploads();
      expect(empty).toMatchObject({ uploads: [], usedToday: 0 });
      expect(empty.dailyLimit).toBeGreaterThan(0);
      const now = t.server.clock.now();
      const sha = "a".repeat(64);
      await t.server.deps.storage.transact(async (tx) => {
        await tx.put(tables.contentUploads, { id: "upl_1", userId: maker.user.userId, sha256: sha, contentType: "image/png", size: 10, name: "x", createdAt: now - 2 * DAY });
        await tx.put(tables.contentUploads, { id: "upl_2", userId: maker.user.userId, sha256: sha, contentType: "image/png", size: 10, name: "x", createdAt: now });
      });
      const listed = await maker.client.creator.listUploads();
      expect(listed.usedToday).toBe(1);
      expect(listed.uploads).toHaveLength(2);
      expect(listed.uploads[0]).toMatchObject({ sha256: sha, url: `/content/${sha}`, contentType: "image/png", size: 10 });
    });
  });

  describe("requestPayout and listPayouts", () => {
    it("should pay out from earned only, at least the minimum, at 0.0038 USD a credit, once per requestId", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const buyer = await player(t);
      await t.server.operator.wallets.grant(maker.user.userId, 5000);
      await expectError(maker.client.creator.requestPayout({ credits: 1000 }), Code.FailedPrecondition, /^credits: only 0 earned/);
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 3000 });
      await t.server.operator.wallets.grant(buyer.user.userId, 3000);
      await buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 3000 });
      await expectError(maker.client.creator.requestPayout({ credits: 1000 }), Code.FailedPrecondition, /^credits: only 0 earned/);
      t.server.clock.advance(3 * DAY);
      await expectError(maker.client.creator.requestPayout({ credits: 999 }), Code.InvalidArgument, /^credits: at least 1000/);
      await expectError(maker.client.creator.requestPayout({ credits: 2101 }), Code.FailedPrecondition, /^credits: only 2100 earned/);
      await expectError(maker.client.creator.requestPayout({ credits: 1000, method: "cash" }), Code.InvalidArgument, /^method: /);
      const [first, second] = await Promise.all([
        maker.client.creator.requestPayout({ credits: 1001, requestId: "p-1" }),
        maker.client.creator.requestPayout({ credits: 1001, requestId: "p-1" }),
      ]);
      expect(second).toEqual(first);
      expect(first).toMatchObject({ credits: 1001, amountUsd: "3.8038", method: "bank", status: "requested", failureReason: "" });
      await expectError(maker.client.creator.requestPayout({ credits: 1002, requestId: "p-1" }), Code.InvalidArgument, /^requestId: /);
      expect(await maker.client.economy.getWallet()).toEqual({ purchased: 5000, earned: 1099, pending: 0, total: 6099 });
      const { payouts } = await maker.client.creator.listPayouts();
      expect(payouts.map((p) => p.id)).toEqual([first.id]);
    });

    it("should move payouts through the operator and return the credits when one fails or is reversed", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const buyer = await player(t);
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 10000 });
      await t.server.operator.wallets.grant(buyer.user.userId, 10000);
      await buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 10000 });
      t.server.clock.advance(3 * DAY);
      const a = await maker.client.creator.requestPayout({ credits: 3000, method: "usdc" });
      const b = await maker.client.creator.requestPayout({ credits: 2000 });
      expect((await maker.client.economy.getWallet()).earned).toBe(2000);
      await expectError(t.server.operator.payouts.advance(a.id, "paid"), Code.FailedPrecondition, /requested payout cannot become paid/);
      await t.server.operator.payouts.advance(a.id, "processing");
      await t.server.operator.payouts.advance(a.id, "failed", "bank account closed");
      await t.server.operator.payouts.advance(b.id, "processing");
      await t.server.operator.payouts.advance(b.id, "paid");
      expect((await maker.client.economy.getWallet()).earned).toBe(5000);
      await t.server.operator.payouts.advance(b.id, "reversed", "chargeback");
      await expectError(t.server.operator.payouts.advance(b.id, "paid"), Code.FailedPrecondition);
      expect((await maker.client.economy.getWallet()).earned).toBe(7000);
      const { payouts } = await maker.client.creator.listPayouts();
      expect(payouts.map((p) => [p.id, p.status, p.failureReason])).toEqual([[b.id, "reversed", "chargeback"], [a.id, "failed", "bank account closed"]]);
      const kinds = (await maker.client.economy.listTransactions({})).transactions.map((x) => [x.kind, x.amount]);
      expect(kinds).toEqual([["refund", 2000], ["refund", 3000], ["payout", -2000], ["payout", -3000], ["sale", 7000]]);
    });
  });
});

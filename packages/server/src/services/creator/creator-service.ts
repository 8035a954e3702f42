import {
  creditsToUsd, dailySeries, day1Retention, dayKey, dayWindow, fail, PAYOUT_MIN_CREDITS, tables,
  type CreatorService, type ItemKind, type PayoutRow, type Tx,
} from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso } from "../identity/accounts.js";
import { LIST_DEFAULT, PAYOUT_METHODS } from "../economy/config.js";
import { CATALOG_LIMITS } from "../catalog/config.js";
import { ownExperience } from "../catalog/access.js";
import { playersNowOf } from "../catalog/players-now.js";
import { itemViews } from "../economy/items.js";
import { nextSeq, post, settledWallet } from "../economy/ledger.js";
import { creatorDailyFigures, experiencePlayFigures } from "./stats.js";
import { payoutView } from "./views.js";
import { listUploads } from "./uploads.js";

/** Days of the overview's daily series; its `7d` figures are the last 7 of them. */
export const OVERVIEW_SERIES_DAYS = 30;
/** The analytics window when `days` is 0. */
export const ANALYTICS_DEFAULT_DAYS = 30;
/** How many items `topItems` names. */
export const TOP_ITEMS = 10;

/** CreatorService: overview, analytics, sales, items, uploads, payouts. */
export const creatorService: ServiceImpl<typeof CreatorService> = {
  async getOverview(_req, ctx) {
    const userId = ctx.user().userId;
    const now = ctx.deps.clock.now();
    return ctx.deps.storage.transact(async (tx) => {
      const experiences = await tx.query(tables.experiences, "byCreator", { equals: [userId] });
      let publicExperiences = 0, visitsTotal = 0, favoritesTotal = 0;
      for (const e of experiences) {
        if (e.visibility === "public") publicExperiences += 1;
        visitsTotal += e.visits;
        favoritesTotal += e.favorites;
      }
      const playing = (await playersNowOf(tx, experiences.map((e) => e.id))).reduce((a, b) => a + b, 0);
      const window = dayWindow(now, OVERVIEW_SERIES_DAYS);
      const daily = await creatorDailyFigures(tx, userId, window.days[0]!);
      const visits = new Map([...daily].map(([day, d]) => [day, d.visits]));
      const revenue = new Map([...daily].map(([day, d]) => [day, d.revenue]));
      const lastWeek = new Set(window.days.slice(-7));
      let visits7d = 0, sales7d = 0, revenue7d = 0;
      for (const [day, d] of daily) {
        if (!lastWeek.has(day)) continue;
        visits7d += d.visits;
        sales7d += d.sales;
        revenue7d += d.revenue;
      }
      const wallet = await settledWallet(tx, userId, now);
      return {
        experiences: experiences.length,
        publicExperiences,
        items: await tx.count(tables.items, "byCreatorSeq", { equals: [userId] }),
        visitsTotal,
        visits7d,
        playingNow: playing,
        favoritesTotal,
        earnedAvailable: wallet.earned,
        earnedPending: wallet.pending,
        sales7d,
        revenue7d,
        visitsSeries: dailySeries(window, visits),
        revenueSeries: dailySeries(window, revenue),
      };
    });
  },

  async getExperienceAnalytics(req, ctx) {
    const userId = ctx.user().userId;
    const now = ctx.deps.clock.now();
    const window = dayWindow(now, req.days || ANALYTICS_DEFAULT_DAYS);
    return ctx.deps.storage.transact(async (tx) => {
      const experience = await ownExperience(tx, req.experienceId, userId, "see its analytics");
      const { visits, uniquePlayers, avgSessionSeconds, playerDays } = await experiencePlayFigures(tx, experience.id, window);
      const revenue = new Map<string, number>();
      const add = (day: string, credits: number) => revenue.set(day, (revenue.get(day) ?? 0) + credits);
      const perItem = new Map<string, { sales: number; revenue: number }>();
      for (const order of await tx.query(tables.orders, "byItemExperience", { equals: [experience.id], range: { gte: window.start } })) {
        add(dayKey(order.createdAt), order.creatorShare);
        const entry = perItem.get(order.itemId) ?? { sales: 0, revenue: 0 };
        perItem.set(order.itemId, { sales: entry.sales + 1, revenue: entry.revenue + order.creatorShare });
      }
      for (const order of await tx.query(tables.orders, "bySoldIn", { equals: [experience.id], range: { gte: window.start } })) {
        if (order.sellingCreatorId === userId) add(dayKey(order.createdAt), order.experienceShare);
      }
      const ranked = [...perItem].sort(([a, x], [b, y]) => y.revenue - x.revenue || y.sales - x.sales || (a < b ? -1 : 1)).slice(0, TOP_ITEMS);
      const items = await tx.getMany(tables.items, ranked.map(([itemId]) => itemId));
      const topItems = ranked.map(([itemId, figures], i) => ({ itemId, name: items[i]?.name ?? "", sales: figures.sales, revenue: figures.revenue }));
      return {
        experienceId: experience.id,
        visits: dailySeries(window, visits),
        uniquePlayers: dailySeries(window, uniquePlayers),
        revenue: dailySeries(window, revenue),
        playingNow: (await playersNowOf(tx, [experience.id]))[0]!,
        favorites: experience.favorites,
        upVotes: experience.upVotes,
        downVotes: experience.downVotes,
        avgSessionSeconds,
        day1Retention: day1Retention(playerDays, window),
        topItems,
      };
    });
  },

  async listSales(req, ctx) {
    const userId = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      await settledWallet(tx, userId, ctx.deps.clock.now());
      const rows = await tx.query(tables.ledger, "salesByCreator", { equals: [userId], order: "desc", limit: req.limit || LIST_DEFAULT });
      // Orders, then their items and buyers: three reads for the page.
      const orders = await tx.getMany(tables.orders, rows.map((row) => row.ref));
      const [items, buyers] = await Promise.all([
        tx.getMany(tables.items, orders.map((order) => order?.itemId ?? "")),
        tx.getMany(tables.users, orders.map((order) => order?.buyerId ?? "")),
      ]);
      const sales = [];
      for (const [i, row] of rows.entries()) {
        const order = orders[i];
        const item = order && items[i];
        const buyer = order && buyers[i];
        sales.push({
          transactionId: row.id,
          itemId: order?.itemId ?? "",
          itemName: item?.name ?? "",
          buyerName: buyer && buyer.deletedAt === null ? buyer.username : "",
          price: order?.price ?? 0,
          earned: row.amount,
          status: row.heldUntil === null ? "available" : "pending",
          createdAt: iso(row.createdAt),
        });
      }
      return { sales };
    });
  },

  async listMyItems(req, ctx) {
    const userId = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      const rows = req.kind
        ? await tx.query(tables.items, "byCreator", { equals: [userId, req.kind as ItemKind], order: "desc" })
        : await tx.query(tables.items, "byCreatorSeq", { equals: [userId], order: "desc" });
      return { items: await itemViews(tx, rows, userId) };
    });
  },

  async listUploads(_req, ctx) {
    const userId = ctx.user().userId;
    return listUploads(ctx.deps, userId, CATALOG_LIMITS.dailyUploads);
  },

  async requestPayout(req, ctx) {
    const userId = ctx.user().userId;
    const { deps } = ctx;
    const method = req.method || PAYOUT_METHODS[0];
    if (!(PAYOUT_METHODS as readonly string[]).includes(method)) throw fail.invalid(`method: one of ${PAYOUT_METHODS.join(", ")}`);
    if (req.credits < PAYOUT_MIN_CREDITS) throw fail.invalid(`credits: at least ${PAYOUT_MIN_CREDITS}`);
    if (!Number.isSafeInteger(req.credits)) throw fail.invalid("credits: too large");
    return deps.storage.transact(async (tx) => {
      if (req.requestId) {
        const [first] = await tx.query(tables.payouts, "byRequest", { equals: [userId, req.requestId], limit: 1 });
        if (first) {
          if (first.credits !== req.credits || first.method !== method) throw fail.invalid("requestId: already used for a different payout");
          return payoutView(first);
        }
      }
      const now = deps.clock.now();
      const wallet = await settledWallet(tx, userId, now);
      if (wallet.earned < req.credits) throw fail.precondition(`credits: only ${wallet.earned} earned credits can be cashed out`);
      const id = deps.ids.id("pay");
      await post(tx, deps, { userId, kind: "payout", amount: -req.credits, earned: -req.credits, memo: `Payout ${id} (${method})`, ref: id }, wallet);
      const payout: PayoutRow = {
        id,
        userId,
        credits: req.credits,
        amountUsd: creditsToUsd(req.credits),
        method,
        status: "requested",
        failureReason: "",
        requestId: req.requestId,
        createdAt: now,
        updatedAt: now,
        seq: nextSeq(deps),
      };
      await tx.put(tables.payouts, payout);
      return payoutView(payout);
    });
  },

  async listPayouts(_req, ctx) {
    const userId = ctx.user().userId;
    const rows = await ctx.deps.storage.transact((tx) => tx.query(tables.payouts, "byUser", { equals: [userId], order: "desc" }));
    return { payouts: rows.map(payoutView) };
  },
};

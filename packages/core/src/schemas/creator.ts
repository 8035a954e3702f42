import { z } from "zod";
import { double, int64, list, message, string, timestamp } from "../wire/fields.js";
import { empty, ITEM_KINDS, limit } from "./common.js";
import { REQUEST_ID_MAX } from "./economy.js";

/*
 * Schemas of CreatorService, in the spec's field order (the order gives the
 * proto field numbers). Caps the spec leaves open: ids 1-64 characters;
 * analytics window `days` at most 90 (0: the service's default); ListSales
 * limit at most 100; payout `credits` at least 1, `method` at most 32 ("" is
 * the account's default), `requestId` at most 128 (empty: no idempotency key).
 */

/** States of a payout (see the spec's "Payout status" transitions). */
export const PAYOUT_STATUSES = ["requested", "processing", "paid", "failed", "reversed"] as const;

export const ANALYTICS_DAYS_MAX = 90;

const max = (n: number) => z.string().max(n, { error: `at most ${n} characters` });

export const DailyPoint = message("DailyPoint", { date: string(), value: int64() });

export const CreatorOverview = message("CreatorOverview", {
  experiences: int64(),
  publicExperiences: int64(),
  items: int64(),
  visitsTotal: int64(),
  visits7d: int64(),
  playingNow: int64(),
  favoritesTotal: int64(),
  earnedAvailable: int64(),
  earnedPending: int64(),
  sales7d: int64(),
  revenue7d: int64(),
  visitsSeries: list(DailyPoint),
  revenueSeries: list(DailyPoint),
});

export const ExperienceAnalyticsRequest = message("ExperienceAnalyticsRequest", {
  experienceId: string(z.string().min(1, { error: "required" }).max(64, { error: "at most 64 characters" })),
  days: limit(ANALYTICS_DAYS_MAX), // 0-90 days, 0 = the default window: the same rule as a limit
});

export const ItemSales = message("ItemSales", {
  itemId: string(),
  name: string(),
  sales: int64(),
  revenue: int64(),
});

export const ExperienceAnalytics = message("ExperienceAnalytics", {
  experienceId: string(),
  visits: list(DailyPoint),
  uniquePlayers: list(DailyPoint),
  revenue: list(DailyPoint),
  playingNow: int64(),
  favorites: int64(),
  upVotes: int64(),
  downVotes: int64(),
  avgSessionSeconds: int64(),
  day1Retention: double(),
  topItems: list(ItemSales),
});

export const ListSalesRequest = message("ListSalesRequest", { limit: limit(100) });

export const Sale = message("Sale", {
  transactionId: string(),
  itemId: string(),
  itemName: string(),
  buyerName: string(),
  price: int64(),
  earned: int64(),
  status: string(),
  createdAt: timestamp(),
});
export const ListSalesResponse = message("ListSalesResponse", { sales: list(Sale) });

export const ListMyItemsRequest = message("ListMyItemsRequest", {
  kind: string(z.string().refine((v) => v === "" || (ITEM_KINDS as readonly string[]).includes(v), { error: `one of ${ITEM_KINDS.join(", ")}` })),
});

export const Upload = message("Upload", {
  sha256: string(),
  url: string(),
  contentType: string(),
  size: int64(),
  createdAt: timestamp(),
});
export const ListUploadsResponse = message("ListUploadsResponse", { uploads: list(Upload), usedToday: int64(), dailyLimit: int64() });

export const RequestPayoutRequest = message("RequestPayoutRequest", {
  credits: int64(z.int().min(1, { error: "at least 1" })),
  method: string(max(32)),
  requestId: string(max(REQUEST_ID_MAX)),
});

export const Payout = message("Payout", {
  id: string(),
  credits: int64(),
  amountUsd: string(),
  method: string(),
  status: string(),
  createdAt: timestamp(),
  failureReason: string(),
  updatedAt: timestamp(),
});
export const ListPayoutsResponse = message("ListPayoutsResponse", { payouts: list(Payout) });

export const CreatorOverviewRequest = empty("CreatorOverviewRequest");
export const ListUploadsRequest = empty("ListUploadsRequest");
export const ListPayoutsRequest = empty("ListPayoutsRequest");

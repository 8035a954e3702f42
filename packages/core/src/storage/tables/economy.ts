import { defineTable } from "../port.js";

/*
 * EconomyService's and CreatorService's tables: wallets and their ledger,
 * items and who owns them, orders (purchases), top-up orders, payouts,
 * per-creator and per-experience daily aggregates.
 *
 * No row is written by every call (docs/storage.md, "Hot rows"): `seq`
 * numbers come from the writing server (`nextSeq`), not from a shared
 * counter row, and the daily aggregates are kept in shards summed on read.
 * `seq` only orders rows: no index on it is unique, equal numbers tie by
 * primary key, and a ledger row's is above its wallet's `lastSeq`.
 *
 * Money rule: every change of a wallet bucket is a ledger row, written in the
 * same transaction; each bucket of a wallet equals the sum of that bucket's
 * deltas over the wallet's ledger rows.
 */

/** A user's credit wallet. Absent until the first change: read as all zeros. */
export interface WalletRow {
  userId: string;
  purchased: number;
  earned: number;
  pending: number;
  /** The earliest `heldUntil` of the wallet's held sale rows; null when nothing is held. */
  nextReleaseAt: number | null;
  updatedAt: number;
  /**
   * The `seq` of the wallet's newest ledger row (absent on wallets written before it was kept):
   * the next row's is above it, so a wallet's rows order as they were written, whichever process wrote them.
   */
  lastSeq?: number;
}

export const wallets = defineTable<WalletRow>()({
  name: "wallets",
  primaryKey: (row) => row.userId,
  // Read and written by each of its owner's purchases, top-ups and payouts.
  checkedCopies: true,
  indexes: {},
});

/**
 * Kinds of ledger rows: the spec's five plus `payout` (credits leaving
 * `earned` for a cash-out). A failed or reversed payout is a `refund`.
 */
export type LedgerKind = "top_up" | "purchase" | "sale" | "refund" | "grant" | "payout";

/** One change of a wallet: a signed amount shown to the user, and the delta it made to each bucket. */
export interface LedgerRow {
  id: string;
  userId: string;
  kind: LedgerKind;
  /** The signed change shown in ListTransactions. */
  amount: number;
  memo: string;
  createdAt: number;
  /** Order of the wallet's writes (`nextSeq` in the server, above the wallet's `lastSeq`): newest first is descending `seq`. */
  seq: number;
  /** Bucket deltas. A held sale has its share in `pending`; its release moves it to `earned` on the same row. */
  purchased: number;
  earned: number;
  pending: number;
  /** Set while a sale's share is held. */
  heldUntil: number | null;
  /** The order, top-up order or payout this row belongs to. */
  ref: string;
  /** For sales: `creator` (the item's creator) or `experience` (the selling experience's creator). */
  role: "creator" | "experience" | null;
}

export const ledger = defineTable<LedgerRow>()({
  name: "ledger",
  primaryKey: (row) => row.id,
  indexes: {
    byUser: { key: (row) => [row.userId, row.seq] },
    /** Held sale shares by release time, for lazy settlement. */
    heldByUser: { key: (row) => (row.heldUntil === null ? null : [row.userId, row.heldUntil]) },
    /** Sales of a creator's own items (ListSales). */
    salesByCreator: { key: (row) => (row.kind === "sale" && row.role === "creator" ? [row.userId, row.seq] : null) },
  },
});

export type ItemKind = "avatar_hat" | "avatar_shirt" | "avatar_emote" | "game_pass" | "developer_product";

export interface ItemRow {
  id: string;
  kind: ItemKind;
  name: string;
  description: string;
  price: number;
  creatorId: string;
  /** Game passes and developer products: the creator's experience they belong to; "" otherwise. */
  experienceId: string;
  thumbnailUrl: string;
  listed: boolean;
  /**
   * Sales counted in the row itself: those before sales were counted in
   * `item_sales`, and 0 for items created since. The item's sales are this
   * plus its `item_sales` rows (`itemSalesIds`); a sale no longer writes the row.
   */
  sales: number;
  createdAt: number;
  updatedAt: number;
  seq: number;
}

export const items = defineTable<ItemRow>()({
  name: "items",
  primaryKey: (row) => row.id,
  // Read by every purchase of the item, written when its creator edits it.
  checkedCopies: true,
  indexes: {
    byCreator: { key: (row) => [row.creatorId, row.kind, row.seq] },
    byCreatorSeq: { key: (row) => [row.creatorId, row.seq] },
    listed: { key: (row) => (row.listed ? [row.seq] : null) },
    listedByKind: { key: (row) => (row.listed ? [row.kind, row.seq] : null) },
    listedByExperience: { key: (row) => (row.listed && row.experienceId ? [row.experienceId, row.seq] : null) },
  },
});

/** Shards of an item's sales count: a sale bumps its buyer's shard (as it bumps its creator's daily row of the same shard: as many). */
export const ITEM_SALES_SHARDS = 16;

/**
 * One shard of an item's sales count. Every sale would otherwise write the
 * item row, so concurrent buyers of one item would take turns on it
 * (docs/storage.md, "Hot rows"): a sale bumps the row of its buyer's shard
 * (`shardOf(buyerId, ITEM_SALES_SHARDS)`), and readers sum an item's rows
 * (by id: no index to keep up per sale) with the item row's own `sales`.
 */
export interface ItemSalesRow {
  /** `itemSalesId(itemId, shard)` */
  id: string;
  itemId: string;
  shard: number;
  sales: number;
}

export function itemSalesId(itemId: string, shard: number): string {
  return `${itemId}:${shard}`;
}

/** The ids of every shard of `itemId`'s sales count, in shard order. */
export function itemSalesIds(itemId: string): string[] {
  const ids: string[] = [];
  for (let shard = 0; shard < ITEM_SALES_SHARDS; shard++) ids.push(itemSalesId(itemId, shard));
  return ids;
}

export const itemSales = defineTable<ItemSalesRow>()({
  name: "item_sales",
  primaryKey: (row) => row.id,
  // One shard per purchase, the item's count read from all of them: copies, as sales counts may be a notice late.
  cachedReads: true,
  indexes: {},
});

/** An item a user owns (avatar items and game passes; developer products are consumed, not owned). */
export interface OwnershipRow {
  /** `${userId}:${itemId}` */
  id: string;
  userId: string;
  itemId: string;
  kind: ItemKind;
  acquiredAt: number;
  seq: number;
}

export const ownership = defineTable<OwnershipRow>()({
  name: "ownership",
  primaryKey: (row) => row.id,
  // Read by every purchase (to refuse one twice): mostly missing, and then a copy of its absence.
  checkedCopies: true,
  indexes: {
    byUser: { key: (row) => [row.userId, row.seq] },
    byUserKind: { key: (row) => [row.userId, row.kind, row.seq] },
  },
});

/** One purchase of an item: the price paid and how it was split. */
export interface OrderRow {
  id: string;
  buyerId: string;
  itemId: string;
  itemKind: ItemKind;
  /** The buyer's idempotency key; "" when none was given. */
  requestId: string;
  price: number;
  creatorId: string;
  creatorShare: number;
  /** The item's experience ("" for avatar items). */
  itemExperienceId: string;
  /** The experience the sale happened in ("" when none). */
  soldInExperienceId: string;
  /** Paid the selling-experience share; null when none was paid. */
  sellingCreatorId: string | null;
  experienceShare: number;
  fee: number;
  /** The buyer's `purchase` ledger row. */
  transactionId: string;
  /** The buyer's wallet right after the purchase: a retried request answers it again. */
  walletAfter: { purchased: number; earned: number; pending: number };
  createdAt: number;
  seq: number;
}

export const orders = defineTable<OrderRow>()({
  name: "orders",
  primaryKey: (row) => row.id,
  indexes: {
    byRequest: { key: (row) => (row.requestId ? [row.buyerId, row.requestId] : null), unique: true },
    byItemExperience: { key: (row) => (row.itemExperienceId ? [row.itemExperienceId, row.createdAt] : null) },
    bySoldIn: { key: (row) => (row.experienceShare > 0 ? [row.soldInExperienceId, row.createdAt] : null) },
  },
});

export type TopUpStatus = "pending" | "paid" | "cancelled";

/** A top-up started with a payment provider. */
export interface TopUpOrderRow {
  id: string;
  userId: string;
  packId: string;
  credits: number;
  priceMinor: number;
  currency: string;
  method: string;
  status: TopUpStatus;
  createdAt: number;
  completedAt: number | null;
}

export const topUpOrders = defineTable<TopUpOrderRow>()({
  name: "top_up_orders",
  primaryKey: (row) => row.id,
  indexes: {
    byUser: { key: (row) => [row.userId, row.createdAt] },
  },
});

export type PayoutStatusName = "requested" | "processing" | "paid" | "failed" | "reversed";

export interface PayoutRow {
  id: string;
  userId: string;
  credits: number;
  amountUsd: string;
  method: string;
  status: PayoutStatusName;
  failureReason: string;
  /** The creator's idempotency key; "" when none was given. */
  requestId: string;
  createdAt: number;
  updatedAt: number;
  seq: number;
}

export const payouts = defineTable<PayoutRow>()({
  name: "payouts",
  primaryKey: (row) => row.id,
  indexes: {
    byUser: { key: (row) => [row.userId, row.seq] },
    byRequest: { key: (row) => (row.requestId ? [row.userId, row.requestId] : null), unique: true },
    /** The admin API's queue of payouts by status, oldest first. */
    byStatus: { key: (row) => [row.status, row.seq] },
  },
});

/**
 * A creator's figures of one UTC day, kept up to date in the transaction that
 * records each play and each sale, so the overview reads a few rows instead
 * of every play. A day's figures are the sum of its rows: one per shard
 * (`id` is `${creatorId}:${day}:${shard}`, the shard from the buyer or player,
 * so concurrent writers rarely share a row), plus the unsharded row
 * `${creatorId}:${day}` that earlier versions wrote (read, never written).
 */
export interface CreatorDailyRow {
  id: string;
  creatorId: string;
  /** `YYYY-MM-DD` */
  day: string;
  visits: number;
  /** Items of the creator sold. */
  sales: number;
  /** Credits the creator earned from sales (own items and selling-experience shares). */
  revenue: number;
}

export const creatorDaily = defineTable<CreatorDailyRow>()({
  name: "creator_daily",
  primaryKey: (row) => row.id,
  // A shard of a creator's day, written by each sale.
  checkedCopies: true,
  indexes: {
    byCreator: { key: (row) => [row.creatorId, row.day] },
  },
});

/**
 * An experience's play figures of one UTC day (the day plays started), kept
 * up to date as plays start and end, so analytics read a few rows per day.
 * Sharded like `CreatorDailyRow`: `id` is `${experienceId}:${day}:${shard}`
 * (the shard from the player), and a day's figures are the sum of its rows.
 */
export interface ExperienceDailyRow {
  id: string;
  experienceId: string;
  /** `YYYY-MM-DD` */
  day: string;
  /** Plays started. */
  visits: number;
  /** Distinct players who started a play. */
  uniquePlayers: number;
  /** Plays of the day that ended, and their summed length in ms (the mean session length). */
  endedPlays: number;
  playMs: number;
}

export const experienceDaily = defineTable<ExperienceDailyRow>()({
  name: "experience_daily",
  primaryKey: (row) => row.id,
  // A shard of an experience's day, written by each sale in it.
  checkedCopies: true,
  indexes: {
    byExperience: { key: (row) => [row.experienceId, row.day] },
  },
});

/**
 * That a player started at least one play of an experience on a UTC day:
 * what makes unique players and day-1 retention exact without the plays.
 * `id` is `${experienceId}:${day}:${userId}`.
 */
export interface PlayerDayRow {
  id: string;
  experienceId: string;
  userId: string;
  /** The day's first instant (00:00 UTC), ms. */
  dayStart: number;
}

export const playerDays = defineTable<PlayerDayRow>()({
  name: "player_days",
  primaryKey: (row) => row.id,
  indexes: {
    byExperience: { key: (row) => [row.experienceId, row.dayStart] },
  },
});

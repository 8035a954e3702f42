import {
  fail, planSpend, SALE_HOLD_MS, splitSale, tables, withChanges,
  type EconomyService, type ItemKind, type ItemRow, type OrderRow, type TopUpOrderRow,
} from "@playfield/core";
import type { HandlerContext } from "../../rpc/handler-context.js";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso } from "../identity/accounts.js";
import { CREDIT_PACKS, LIST_DEFAULT } from "./config.js";
import {
  AVATAR_KINDS, EXPERIENCE_KINDS, itemOf, itemView, itemViews, ownedItems, ownedOnce, ownershipId, ownExperience, requireItem,
} from "./items.js";
import { emptyWallet, nextSeq, post, readHolds, settle, settledWallet, walletView, type Posting } from "./ledger.js";
import { providerOf } from "../../ports/payments/index.js";
import { recordSaleStats, saleDailyId } from "../creator/stats.js";
import { knownOf, remember } from "./known-creators.js";
import { inBuyerTurn } from "./buyer-turns.js";

/** The origin of this server as the caller reached it, for absolute checkout URLs. */
function originOf(ctx: HandlerContext): string {
  const host = ctx.header("host");
  // Only a plain host[:port] is trusted into a URL; anything else falls back.
  if (!host || !/^[A-Za-z0-9.\-[\]:]{1,255}$/.test(host)) return "http://localhost";
  const proto = ctx.header("x-forwarded-proto") === "https" ? "https" : "http";
  return `${proto}://${host}`;
}

/** EconomyService: wallet, credit packs and top-ups, items, buying, inventory. */
export const economyService: ServiceImpl<typeof EconomyService> = {
  async getWallet(_req, ctx) {
    const userId = ctx.user().userId;
    const wallet = await ctx.deps.storage.transact((tx) => settledWallet(tx, userId, ctx.deps.clock.now()));
    return walletView(wallet);
  },

  async listTransactions(req, ctx) {
    const userId = ctx.user().userId;
    const rows = await ctx.deps.storage.transact(async (tx) => {
      await settledWallet(tx, userId, ctx.deps.clock.now());
      return tx.query(tables.ledger, "byUser", { equals: [userId], order: "desc", limit: req.limit || LIST_DEFAULT });
    });
    return {
      transactions: rows.map((row) => ({ id: row.id, kind: row.kind, amount: row.amount, memo: row.memo, createdAt: iso(row.createdAt) })),
    };
  },

  async listCreditPacks(_req, ctx) {
    return {
      packs: CREDIT_PACKS.map((p) => ({ ...p })),
      methods: ctx.deps.payments.map((p) => {
        const reason = p.unavailableReason(ctx.deps);
        return { id: p.id, label: p.label, configured: reason === null, reason: reason ?? "" };
      }),
    };
  },

  async startTopUp(req, ctx) {
    const userId = ctx.user().userId;
    const { deps } = ctx;
    const pack = CREDIT_PACKS.find((p) => p.id === req.packId);
    if (!pack) throw fail.notFound("packId: no such credit pack");
    const provider = providerOf(ctx.deps.payments, req.method);
    if (!provider) throw fail.invalid("method: no such payment method");
    const reason = provider.unavailableReason(deps);
    if (reason !== null) throw fail.precondition(`method: ${provider.id} is not configured: ${reason}`);
    const order: TopUpOrderRow = {
      id: deps.ids.id("top"),
      userId,
      packId: pack.id,
      credits: pack.credits,
      priceMinor: pack.priceMinor,
      currency: pack.currency,
      method: provider.id,
      status: "pending",
      createdAt: deps.clock.now(),
      completedAt: null,
    };
    await deps.storage.transact((tx) => tx.put(tables.topUpOrders, order));
    return { orderId: order.id, checkoutUrl: provider.checkoutUrl(order, originOf(ctx)), status: order.status };
  },

  async listItems(req, ctx) {
    const limit = req.limit || LIST_DEFAULT;
    const kind = req.kind as ItemKind | "";
    return ctx.deps.storage.transact(async (tx) => {
      let rows: ItemRow[];
      if (req.experienceId) {
        rows = await tx.query(tables.items, "listedByExperience", { equals: [req.experienceId], order: "desc" });
        if (kind) rows = rows.filter((r) => r.kind === kind);
        rows = rows.slice(0, limit);
      } else if (kind) {
        rows = await tx.query(tables.items, "listedByKind", { equals: [kind], order: "desc", limit });
      } else {
        rows = await tx.query(tables.items, "listed", { order: "desc", limit });
      }
      return { items: await itemViews(tx, rows, ctx.viewerId) };
    });
  },

  async getItem(req, ctx) {
    return ctx.deps.storage.transact(async (tx) => itemView(tx, await requireItem(tx, req.itemId), ctx.viewerId));
  },

  async createItem(req, ctx) {
    const userId = ctx.user().userId;
    const { deps } = ctx;
    const kind = req.kind as ItemKind;
    const name = req.name.trim();
    if (!name) throw fail.invalid("name: required");
    return deps.storage.transact(async (tx) => {
      if (EXPERIENCE_KINDS.includes(kind)) {
        if (!req.experienceId) throw fail.invalid(`experienceId: required for a ${kind}`);
        await ownExperience(tx, req.experienceId, userId);
      } else if (req.experienceId) {
        throw fail.invalid("experienceId: only game passes and developer products belong to an experience");
      }
      const now = deps.clock.now();
      const row: ItemRow = {
        id: deps.ids.id("itm"),
        kind,
        name,
        description: req.description,
        price: req.price,
        creatorId: userId,
        experienceId: req.experienceId,
        thumbnailUrl: "",
        listed: true,
        sales: 0,
        createdAt: now,
        updatedAt: now,
        seq: nextSeq(deps),
      };
      await tx.put(tables.items, row);
      return itemView(tx, row, userId);
    });
  },

  async updateItem(req, ctx) {
    const userId = ctx.user().userId;
    const name = req.name.trim();
    if (req.name && !name) throw fail.invalid("name: must not be blank");
    return ctx.deps.storage.transact(async (tx) => {
      const item = await requireItem(tx, req.itemId);
      if (item.creatorId !== userId) throw fail.denied("itemId: only the item's creator may edit it");
      const next: ItemRow = {
        ...item,
        name: name || item.name,
        description: req.description || item.description,
        price: req.price === -1 ? item.price : req.price,
        listed: req.status === "" ? item.listed : req.status === "listed",
        updatedAt: ctx.deps.clock.now(),
      };
      await tx.put(tables.items, next);
      return itemView(tx, next, userId);
    });
  },

  async buyItem(req, ctx) {
    const buyerId = ctx.user().userId;
    const { deps } = ctx;
    const known = knownOf(deps);
    // Reads asked for together go in one message to a database: every row the request names, and the rows of the item's
    // creators when this server knows who they are; then the writes with COMMIT. Creators it does not know yet cost a message more.
    return inBuyerTurn(deps, buyerId, () => deps.storage.transact(async (tx) => {
      const now = deps.clock.now();
      const itemCreator = known.creators.get(req.itemId);
      const guessed = [...new Set([itemCreator, req.soldInExperienceId ? known.creators.get(req.soldInExperienceId) : undefined])]
        .filter((id): id is string => id !== undefined && id !== buyerId);
      const walletIds = [buyerId, ...guessed];
      const dailyIds = guessed.map((creatorId) => saleDailyId(creatorId, now, buyerId));
      // Wallets whose holds fell due when this server last wrote them: the held rows that settling them reads.
      const dueIds = walletIds.filter((id) => (known.releases.get(id) ?? Infinity) <= now);
      const [prior, found, experience, ownedAlready, walletRows, creatorRows, dailyRows, heldRows] = await Promise.all([
        req.requestId ? tx.query(tables.orders, "byRequest", { equals: [buyerId, req.requestId], limit: 1 }) : [],
        tx.get(tables.items, req.itemId),
        req.soldInExperienceId ? tx.get(tables.experiences, req.soldInExperienceId) : undefined,
        tx.get(tables.ownership, ownershipId(buyerId, req.itemId)),
        tx.getMany(tables.wallets, walletIds),
        tx.getMany(tables.users, itemCreator === undefined ? [] : [itemCreator]),
        tx.getMany(tables.creatorDaily, dailyIds),
        Promise.all(dueIds.map((id) => readHolds(tx, id, now))),
      ]);
      // Rows read so far, by id (undefined: absent), none written yet.
      const wallets = new Map(walletIds.map((id, i) => [id, walletRows[i]]));
      const daily = new Map(dailyIds.map((id, i) => [id, dailyRows[i]]));
      const holds = new Map(dueIds.map((id, i) => [id, heldRows[i]]));
      if (found) remember(known.creators, found.id, found.creatorId);
      if (experience) remember(known.creators, experience.id, experience.creatorId);
      /** The item's creator's user row: read ahead when the guess was right. */
      const creatorOf = (item: ItemRow) => (itemCreator === item.creatorId ? creatorRows[0] : tx.get(tables.users, item.creatorId));
      const first = prior[0];
      if (first) {
        if (first.itemId !== req.itemId) throw fail.invalid("requestId: already used for a different item");
        // A retried or duplicate request: the first result again, nothing charged.
        if (!found) throw fail.notFound("itemId: no such item");
        const item = itemOf(found, await creatorOf(found), ownedOnce(found.kind) && ownedAlready !== undefined);
        return { wallet: walletView(first.walletAfter), item, transactionId: first.transactionId };
      }
      if (!found) throw fail.notFound("itemId: no such item");
      const item = found;
      if (req.soldInExperienceId && !experience) throw fail.notFound("soldInExperienceId: no such experience");
      const sellingCreatorId = experience?.creatorId ?? null;
      if (!item.listed) throw fail.precondition("itemId: the item is not on sale");
      if (req.expectedPrice !== item.price) throw fail.precondition(`expectedPrice: the price is now ${item.price}`);
      if (item.creatorId === buyerId) throw fail.precondition("itemId: creators cannot buy their own items");
      if (ownedOnce(item.kind) && ownedAlready) throw fail.exists("itemId: already owned");
      const wallet = await settle(tx, wallets.get(buyerId) ?? emptyWallet(buyerId), now, holds.get(buyerId));
      const plan = planSpend(wallet, item.price);
      if (!plan) throw fail.precondition(`not enough credits: the price is ${item.price}, you can spend ${wallet.purchased + wallet.earned}`);
      const split = splitSale({ price: item.price, avatarItem: AVATAR_KINDS.includes(item.kind), creatorId: item.creatorId, sellingCreatorId });
      // A buyer never earns a share of their own purchase: it goes to the platform fee instead.
      const experienceShare = sellingCreatorId === buyerId ? 0 : split.experienceShare;
      const fee = split.fee + (split.experienceShare - experienceShare);
      const orderId = deps.ids.id("ord");
      // The buyer's wallet as settled above: not read again.
      const bought = await post(tx, deps, {
        userId: buyerId, kind: "purchase", amount: -item.price, purchased: -plan.fromPurchased, earned: -plan.fromEarned,
        memo: `Bought ${item.name}`, ref: orderId,
      }, wallet);
      const heldUntil = now + SALE_HOLD_MS;
      // The shares to post: the item's creator and the selling experience's are two users, neither the buyer.
      const shares: Posting[] = [];
      if (split.creatorShare > 0) {
        shares.push({
          userId: item.creatorId, kind: "sale", amount: split.creatorShare, pending: split.creatorShare, heldUntil,
          memo: `Sale of ${item.name} (held until ${iso(heldUntil)})`, ref: orderId, role: "creator",
        });
      }
      if (experienceShare > 0 && sellingCreatorId) {
        shares.push({
          userId: sellingCreatorId, kind: "sale", amount: experienceShare, pending: experienceShare, heldUntil,
          memo: `Share of ${item.name} sold in your experience (held until ${iso(heldUntil)})`, ref: orderId, role: "experience",
        });
      }
      const seq = nextSeq(deps);
      const order: OrderRow = {
        id: orderId,
        buyerId,
        itemId: item.id,
        itemKind: item.kind,
        requestId: req.requestId,
        price: item.price,
        creatorId: item.creatorId,
        creatorShare: split.creatorShare,
        itemExperienceId: item.experienceId,
        soldInExperienceId: req.soldInExperienceId,
        sellingCreatorId: experienceShare > 0 ? sellingCreatorId : null,
        experienceShare,
        fee,
        transactionId: bought.row.id,
        walletAfter: { purchased: bought.wallet.purchased, earned: bought.wallet.earned, pending: bought.wallet.pending },
        createdAt: now,
        seq,
      };
      const sold = withChanges(item, { sales: item.sales + 1 });
      await tx.put(tables.items, sold);
      if (ownedOnce(item.kind)) {
        await tx.put(tables.ownership, { id: ownershipId(buyerId, item.id), userId: buyerId, itemId: item.id, kind: item.kind, acquiredAt: now, seq });
      }
      // What was not read ahead (creators this server had not seen), read in one turn: the sellers' wallets, the daily figures, the creator's name.
      const unread = shares.map((share) => share.userId).filter((id) => !wallets.has(id));
      const [, more, creator] = await Promise.all([
        tx.put(tables.orders, order),
        unread.length > 0 ? tx.getMany(tables.wallets, unread) : [],
        creatorOf(item),
        recordSaleStats(tx, now, { buyerId, creatorId: item.creatorId, creatorShare: split.creatorShare, sellingCreatorId: order.sellingCreatorId, experienceShare }, daily),
      ]);
      for (const [i, id] of unread.entries()) wallets.set(id, more[i]);
      // The sellers' wallets as read above: the buyer's is the only one written so far, and no share is the buyer's.
      const paid = [bought.wallet];
      for (const share of shares) {
        paid.push((await post(tx, deps, share, await settle(tx, wallets.get(share.userId) ?? emptyWallet(share.userId), now, holds.get(share.userId)))).wallet);
      }
      for (const written of paid) remember(known.releases, written.userId, written.nextReleaseAt);
      // Just bought: owned when the kind is owned once (the ownership row above), never otherwise.
      return { wallet: walletView(bought.wallet), item: itemOf(sold, creator, ownedOnce(item.kind)), transactionId: bought.row.id };
    }));
  },

  async listInventory(req, ctx) {
    const userId = ctx.user().userId;
    return ctx.deps.storage.transact(async (tx) => {
      const owned = req.kind
        ? await tx.query(tables.ownership, "byUserKind", { equals: [userId, req.kind], order: "desc" })
        : await tx.query(tables.ownership, "byUser", { equals: [userId], order: "desc" });
      return { items: await itemViews(tx, await ownedItems(tx, owned), userId) };
    });
  },
};

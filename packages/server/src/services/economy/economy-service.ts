import {
  cursorOf, fail, tables, transactAfterReads, type Cursor, type EconomyService, type ItemKind, type ItemRow, type TopUpOrderRow, type Tx,
} from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso } from "../identity/accounts.js";
import { CREDIT_PACKS, LIST_DEFAULT, LIST_SCAN_MAX } from "./config.js";
import { ownExperience, seenExperience } from "../catalog/access.js";
import { EXPERIENCE_KINDS, itemsSeen, itemView, itemViews, ownedItems, seenItem } from "./items.js";
import { nextSeq, settledWallet, walletView } from "./ledger.js";
import { providerOf } from "../../ports/payments/index.js";
import { inTurn } from "../turns.js";
import { buyInTransaction, readSalesShards } from "./buy-item.js";

/**
 * Listed items, newest first, of a kind or all, leaving out those of experiences the viewer cannot see: pages until
 * `limit` are found, or LIST_SCAN_MAX rows were read.
 */
async function listedSeen(tx: Tx, kind: ItemKind | "", limit: number, viewerId: string | null): Promise<ItemRow[]> {
  const found: ItemRow[] = [];
  let after: Cursor | undefined;
  for (let read = 0; read < LIST_SCAN_MAX; read += limit) {
    const page = kind
      ? await tx.query(tables.items, "listedByKind", { equals: [kind], order: "desc", limit, ...(after ? { after } : {}) })
      : await tx.query(tables.items, "listed", { order: "desc", limit, ...(after ? { after } : {}) });
    const seen = await itemsSeen(tx, page, viewerId);
    for (let i = 0; i < page.length && found.length < limit; i++) if (seen[i]) found.push(page[i]!);
    if (found.length >= limit || page.length < limit) return found;
    after = cursorOf(tables.items, kind ? "listedByKind" : "listed", page[page.length - 1]!);
  }
  return found;
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
    return { orderId: order.id, checkoutUrl: provider.checkoutUrl(order, ctx.deps.config.publicUrl ?? ""), status: order.status };
  },

  async listItems(req, ctx) {
    const limit = req.limit || LIST_DEFAULT;
    const kind = req.kind as ItemKind | "";
    const viewerId = ctx.viewerId;
    return ctx.deps.storage.transact(async (tx) => {
      let rows: ItemRow[];
      if (req.experienceId) {
        // A hidden experience lists as an unknown one does: nothing.
        if (!(await seenExperience(tx, req.experienceId, viewerId))) return { items: [] };
        rows = await tx.query(tables.items, "listedByExperience", { equals: [req.experienceId], order: "desc" });
        if (kind) rows = rows.filter((r) => r.kind === kind);
        rows = rows.slice(0, limit);
      } else {
        rows = await listedSeen(tx, kind, limit, viewerId);
      }
      return { items: await itemViews(tx, rows, viewerId) };
    });
  },

  async getItem(req, ctx) {
    const viewerId = ctx.viewerId;
    return ctx.deps.storage.transact(async (tx) => itemView(tx, await seenItem(tx, req.itemId, viewerId), viewerId));
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
        await ownExperience(tx, req.experienceId, userId, "sell items in it");
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
      const item = await seenItem(tx, req.itemId, userId);
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

  buyItem(req, ctx) {
    const buyerId = ctx.user().userId;
    const { deps } = ctx;
    // One buyer's purchases in turn (turns.ts): they all write the buyer's wallet.
    return inTurn(deps, `buyer:${buyerId}`, () => transactAfterReads(
      deps.storage, (tx) => readSalesShards(tx, req.itemId), (tx, salesRead) => buyInTransaction(tx, deps, buyerId, req, salesRead),
    ));
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

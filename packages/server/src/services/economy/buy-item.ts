import {
  fail, planSpend, SALE_HOLD_MS, splitSale, tables,
  type EconomyService, type ExperienceRow, type ItemSalesRow, type MethodOutput, type MethodRequest, type OrderRow, type Tx, type WalletRow,
} from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import { canSeeExperience } from "../catalog/access.js";
import { ignore } from "../early-reads.js";
import { iso } from "../identity/accounts.js";
import { recordSaleStats, saleDailyId } from "../creator/stats.js";
import { bumpedShard, saleShard, salesSum } from "./item-sales.js";
import { AVATAR_KINDS, itemOf, ownedOnce, ownershipId } from "./items.js";
import { knownOf, remember } from "./known-creators.js";
import { emptyWallet, isDue, nextSeq, post, readHolds, settle, walletView, type Holds, type Posting } from "./ledger.js";

/*
 * BuyItem's transaction. Reads asked for together go in one message to a
 * database: every row the request names, and the rows of the item's creators
 * when this server knows who they are; then the writes with COMMIT. Creators
 * it does not know yet cost a message more.
 *
 * Every call of a busy buyer runs it, so it builds what it must and little
 * else: the rows read ahead are looked up in the arrays they came in (a
 * handful of ids), and a step with nothing to do (no hold due, no share to
 * pay, no row missing) makes no promise.
 */

type BuyItemRequest = MethodRequest<typeof EconomyService.methods.buyItem>;
type BuyItemResponse = MethodOutput<typeof EconomyService.methods.buyItem>;

/** A read not asked for: answers as an empty read would. */
const NONE: readonly never[] = [];

/** The held rows read ahead for `userId`'s wallet (`heldRows[i]` is `dueIds[i]`'s), if any. */
function heldOf(dueIds: readonly string[], heldRows: readonly Holds[], userId: string): Holds | undefined {
  return dueIds.length === 0 ? undefined : heldRows[dueIds.indexOf(userId)];
}

/** Whether the experience exists for the buyer (catalog/access.ts), or, for `soldInExperienceId`, the buyer plays in it. */
async function seesExperience(tx: Tx, experience: ExperienceRow, buyerId: string, orPlaying: boolean): Promise<boolean> {
  if (await canSeeExperience(tx, experience, buyerId)) return true;
  if (!orPlaying) return false;
  // A tester removed while playing still plays: a sale inside the game they are in counts.
  const memberships = await tx.query(tables.sessionMembers, "byUser", { equals: [buyerId] });
  return memberships.some((member) => member.experienceId === experience.id);
}

/**
 * The item's sales shards, read in a snapshot just before BuyItem's transaction (`salesRead`; `transactAfterReads`,
 * on PostgreSQL in its first message): only for the count the answer shows. Read in the transaction, they would
 * make every two concurrent buyers of the item conflict, as the item row did when it held the count.
 */
export function readSalesShards(tx: Tx, itemId: string): Promise<(ItemSalesRow | undefined)[]> {
  return tx.getMany(tables.itemSales, tables.itemSalesIds(itemId));
}

/**
 * Buys `req.itemId` for `buyerId` in `tx`: charges the buyer, pays the creators' shares (held), writes the order.
 * `salesRead`: `readSalesShards` of the item, from before the transaction.
 */
export async function buyInTransaction(
  tx: Tx, deps: ServerDeps, buyerId: string, req: BuyItemRequest, salesRead: Promise<readonly (ItemSalesRow | undefined)[]>,
): Promise<BuyItemResponse> {
  const known = knownOf(deps);
  const now = deps.clock.now();
  const itemCreator = known.creators.get(req.itemId);
  const sellerGuess = req.soldInExperienceId ? known.creators.get(req.soldInExperienceId) : undefined;
  // The buyer's wallet and those of the creators this server guesses (never the buyer), with their daily rows.
  const walletIds = [buyerId];
  if (itemCreator !== undefined && itemCreator !== buyerId) walletIds.push(itemCreator);
  if (sellerGuess !== undefined && sellerGuess !== buyerId && sellerGuess !== itemCreator) walletIds.push(sellerGuess);
  const dailyIds: string[] = [];
  for (let i = 1; i < walletIds.length; i++) dailyIds.push(saleDailyId(walletIds[i]!, now, buyerId));
  // Wallets whose holds fell due when this server last wrote them: the held rows that settling them reads.
  const dueIds: string[] = [];
  for (const id of walletIds) if ((known.releases.get(id) ?? Infinity) <= now) dueIds.push(id);
  // Asked for together, then awaited in turn: on a database they go in one message. Not through a Promise.all,
  // whose array, per-element reactions and lookups cost more than the turns; the later reads' rejections are
  // handled at once, and a read not asked for is its empty answer, with no turn.
  const priorRead = req.requestId ? tx.query(tables.orders, "byRequest", { equals: [buyerId, req.requestId], limit: 1 }) : undefined;
  const foundRead = tx.get(tables.items, req.itemId);
  const experienceRead = req.soldInExperienceId ? tx.get(tables.experiences, req.soldInExperienceId) : undefined;
  // The item's experience, when this server knows it: its visibility decides whether the item exists for the buyer.
  const itemExperienceId = known.experiences.get(req.itemId);
  const itemExperienceRead = !itemExperienceId ? undefined
    : itemExperienceId === req.soldInExperienceId ? experienceRead : tx.get(tables.experiences, itemExperienceId);
  // An item this server knows is bought again and again (a developer product) is owned by no one: nothing to read.
  const kind = known.kinds.get(req.itemId);
  const ownedRead = kind !== undefined && !ownedOnce(kind) ? undefined : tx.get(tables.ownership, ownershipId(buyerId, req.itemId));
  const walletsRead = tx.getMany(tables.wallets, walletIds);
  // The creator's row, for its name: a copy this process keeps will do (docs/economy.md, "Buying").
  const creatorsRead = itemCreator === undefined ? undefined : tx.getCached(tables.users, itemCreator);
  const sale = saleShard(req.itemId, buyerId);
  const shardRead = tx.get(tables.itemSales, sale.id);
  const dailyRead = dailyIds.length === 0 ? undefined : tx.getMany(tables.creatorDaily, dailyIds);
  const heldRead = dueIds.length === 0 ? undefined : Promise.all(dueIds.map((id) => readHolds(tx, id, now)));
  salesRead.catch(ignore);
  foundRead.catch(ignore);
  experienceRead?.catch(ignore);
  itemExperienceRead?.catch(ignore);
  ownedRead?.catch(ignore);
  walletsRead.catch(ignore);
  creatorsRead?.catch(ignore);
  shardRead.catch(ignore);
  dailyRead?.catch(ignore);
  heldRead?.catch(ignore);
  const prior = priorRead === undefined ? NONE : await priorRead;
  const found = await foundRead;
  const experience = experienceRead && await experienceRead;
  const itemExperienceAhead = itemExperienceRead && await itemExperienceRead;
  // The kind remembered checked against the item: one owned once reads the row now (a kind never changes).
  const ownedAlready = ownedRead !== undefined ? await ownedRead : found && ownedOnce(found.kind) ? await tx.get(tables.ownership, ownershipId(buyerId, req.itemId)) : undefined;
  const walletRows = await walletsRead;
  const knownCreator = creatorsRead === undefined ? undefined : await creatorsRead;
  const shard = await shardRead;
  const dailyRows = dailyRead === undefined ? NONE : await dailyRead;
  const heldRows = heldRead === undefined ? NONE : await heldRead;
  if (found) {
    remember(known.creators, found.id, found.creatorId);
    remember(known.kinds, found.id, found.kind);
    remember(known.experiences, found.id, found.experienceId);
  }
  if (experience) remember(known.creators, experience.id, experience.creatorId);
  const first = prior[0];
  if (first) {
    if (first.itemId !== req.itemId) throw fail.invalid("requestId: already used for a different item");
    // A retried or duplicate request: the first result again, nothing charged.
    if (!found) throw fail.notFound("itemId: no such item");
    const creator = itemCreator === found.creatorId ? knownCreator : await tx.getCached(tables.users, found.creatorId);
    const item = itemOf(found, creator, ownedOnce(found.kind) && ownedAlready !== undefined, salesSum(found, await salesRead, { id: sale.id, row: shard }));
    return { wallet: walletView(first.walletAfter), item, transactionId: first.transactionId };
  }
  if (!found) throw fail.notFound("itemId: no such item");
  const item = found;
  // An item of an experience the buyer cannot see does not exist for them (unless they own it), as the experience does not.
  if (item.experienceId && !ownedAlready) {
    const itemExperience = item.experienceId === itemExperienceId ? itemExperienceAhead
      : item.experienceId === req.soldInExperienceId ? experience : await tx.get(tables.experiences, item.experienceId);
    if (!itemExperience || !(await seesExperience(tx, itemExperience, buyerId, false))) throw fail.notFound("itemId: no such item");
  }
  if (req.soldInExperienceId && !(experience && (await seesExperience(tx, experience, buyerId, true)))) {
    throw fail.notFound("soldInExperienceId: no such experience");
  }
  const sellingCreatorId = experience?.creatorId ?? null;
  if (!item.listed) throw fail.precondition("itemId: the item is not on sale");
  if (req.expectedPrice !== item.price) throw fail.precondition(`expectedPrice: the price is now ${item.price}`);
  if (item.creatorId === buyerId) throw fail.precondition("itemId: creators cannot buy their own items");
  if (ownedOnce(item.kind) && ownedAlready) throw fail.exists("itemId: already owned");
  const read = walletRows[0] ?? emptyWallet(buyerId);
  const wallet = isDue(read, now) ? await settle(tx, read, now, heldOf(dueIds, heldRows, buyerId)) : read;
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
  // The shares to post: the item's creator and the selling experience's are two users, neither the buyer.
  const shares: Posting[] = [];
  if (split.creatorShare > 0 || experienceShare > 0) {
    const heldUntil = now + SALE_HOLD_MS;
    const until = iso(heldUntil);
    if (split.creatorShare > 0) {
      shares.push({
        userId: item.creatorId, kind: "sale", amount: split.creatorShare, pending: split.creatorShare, heldUntil,
        memo: `Sale of ${item.name} (held until ${until})`, ref: orderId, role: "creator",
      });
    }
    if (experienceShare > 0 && sellingCreatorId) {
      shares.push({
        userId: sellingCreatorId, kind: "sale", amount: experienceShare, pending: experienceShare, heldUntil,
        memo: `Share of ${item.name} sold in your experience (held until ${until})`, ref: orderId, role: "experience",
      });
    }
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
  // The sale counted in the buyer's shard: the item row is not written.
  const bumped = bumpedShard(item.id, sale, shard);
  await tx.put(tables.itemSales, bumped);
  if (ownedOnce(item.kind)) {
    await tx.put(tables.ownership, { id: ownershipId(buyerId, item.id), userId: buyerId, itemId: item.id, kind: item.kind, acquiredAt: now, seq });
  }
  // What was not read ahead (creators this server had not seen), read in one turn: the sellers' wallets, the daily figures, the creator's name.
  const unread: string[] = [];
  for (const share of shares) if (!walletIds.includes(share.userId)) unread.push(share.userId);
  // In turn, as the first reads.
  const orderPut = tx.put(tables.orders, order);
  const moreRead = unread.length > 0 ? tx.getMany(tables.wallets, unread) : undefined;
  const creatorRead = itemCreator === item.creatorId ? undefined : tx.getCached(tables.users, item.creatorId);
  const statsPut = recordSaleStats(tx, now, { buyerId, creatorId: item.creatorId, creatorShare: split.creatorShare, sellingCreatorId: order.sellingCreatorId, experienceShare }, { ids: dailyIds, rows: dailyRows });
  moreRead?.catch(ignore);
  creatorRead?.catch(ignore);
  statsPut.catch(ignore);
  await orderPut;
  const more = moreRead === undefined ? NONE : await moreRead;
  const creator = creatorRead === undefined ? knownCreator : await creatorRead;
  const others = await salesRead;
  await statsPut;
  // The sellers' wallets as read above: the buyer's is the only one written so far, and no share is the buyer's.
  const paid: WalletRow[] = [];
  for (const share of shares) {
    const at = walletIds.indexOf(share.userId);
    const read: WalletRow = (at === -1 ? more[unread.indexOf(share.userId)] : walletRows[at]) ?? emptyWallet(share.userId);
    paid.push((await post(tx, deps, share, isDue(read, now) ? await settle(tx, read, now, heldOf(dueIds, heldRows, share.userId)) : read)).wallet);
  }
  remember(known.releases, buyerId, bought.wallet.nextReleaseAt);
  for (const written of paid) remember(known.releases, written.userId, written.nextReleaseAt);
  // Just bought: owned when the kind is owned once (the ownership row above), never otherwise.
  return { wallet: walletView(bought.wallet), item: itemOf(item, creator, ownedOnce(item.kind), salesSum(item, others, { id: sale.id, row: bumped })), transactionId: bought.row.id };
}

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Code, PlayfieldError, splitSale, tables, type PayoutStatus } from "@playfield/core";
import { testServer, type TestServer } from "./fixtures.js";
import { retriesSoFar, storageKind } from "./storage-under-test.js";
import { experience, player, type Player } from "./economy-fixtures.js";

/*
 * Model-based test of the money rules: random batches of concurrent callers
 * top up, buy (with retries and duplicate requestIds, stale prices), change
 * prices, delist, let holds expire, request payouts and move them (paid,
 * failed, reversed). After every batch: no bucket is negative, each bucket
 * equals the sum of its ledger, and the money in wallets, payouts in flight
 * and platform fees equals what came in (top-ups, grants) minus what was paid out.
 * On PostgreSQL (the "server-postgres" project) the concurrent callers make
 * SERIALIZABLE transactions collide: the adapter runs them again, and the
 * test checks that it did, so the invariants hold under real retries.
 */

const HOUR = 3_600_000;
const ITEMS = ["hat", "shirt", "pass", "gems"] as const;
type ItemKey = (typeof ITEMS)[number];

type Action =
  | { kind: "topUp"; buyer: number; payTwice: boolean }
  | { kind: "grant"; user: number; credits: number }
  | { kind: "buy"; buyer: number; item: ItemKey; requestId: number | null; stale: boolean; soldIn: number | null }
  | { kind: "price"; item: ItemKey; price: number }
  | { kind: "listed"; item: ItemKey; listed: boolean }
  | { kind: "wait"; hours: number }
  | { kind: "payout"; creator: number; credits: number; requestId: number | null }
  | { kind: "move"; payout: number; to: PayoutStatus; reason: string };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("topUp" as const), buyer: fc.nat(2), payTwice: fc.boolean() }),
  fc.record({ kind: fc.constant("grant" as const), user: fc.nat(4), credits: fc.integer({ min: 1, max: 3000 }) }),
  { weight: 4, arbitrary: fc.record({
    kind: fc.constant("buy" as const), buyer: fc.nat(2), item: fc.constantFrom(...ITEMS),
    requestId: fc.option(fc.nat(3), { nil: null }), stale: fc.boolean(), soldIn: fc.option(fc.nat(1), { nil: null }),
  }) },
  fc.record({ kind: fc.constant("price" as const), item: fc.constantFrom(...ITEMS), price: fc.integer({ min: 0, max: 1500 }) }),
  fc.record({ kind: fc.constant("listed" as const), item: fc.constantFrom(...ITEMS), listed: fc.boolean() }),
  fc.record({ kind: fc.constant("wait" as const), hours: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant("payout" as const), creator: fc.nat(1), credits: fc.integer({ min: 900, max: 3000 }), requestId: fc.option(fc.nat(2), { nil: null }) }),
  { weight: 2, arbitrary: fc.record({
    kind: fc.constant("move" as const), payout: fc.nat(5), to: fc.constantFrom<PayoutStatus>("processing", "paid", "failed", "reversed"), reason: fc.constantFrom("", "bank closed"),
  }) },
);

/**
 * The first batches of every run: credits for the buyers, then six purchases
 * at once that all credit the same two creators' wallets, so that on
 * PostgreSQL their transactions collide and run again.
 */
const CONTENDED: Action[][] = [
  [0, 1, 2].map((buyer) => ({ kind: "grant", user: 2 + buyer, credits: 2000 })),
  [0, 1, 2].flatMap((buyer) => (["hat", "shirt"] as const).map((item): Action => ({ kind: "buy", buyer, item, requestId: null, stale: false, soldIn: null }))),
];

/** What the model knows: prices, money in, fees and payouts, from the answers it saw. */
interface Model {
  prices: Record<ItemKey, number>;
  moneyIn: number;
  fees: number;
  purchases: Map<string, number>; // transactionId → buyer index
  payouts: Map<string, { credits: number; status: PayoutStatus }>;
}

/** Errors the rules may answer; anything else fails the test. */
const EXPECTED: readonly string[] = [Code.FailedPrecondition, Code.AlreadyExists, Code.InvalidArgument];
async function tolerate(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!(error instanceof PlayfieldError) || !EXPECTED.includes(error.code)) throw error;
  }
}

async function setup(t: TestServer) {
  const creators = [await player(t), await player(t)] as const;
  const buyers = [await player(t), await player(t), await player(t)] as const;
  const worlds = [await experience(t, creators[0].user.userId), await experience(t, creators[1].user.userId)] as const;
  const [c0, c1] = creators.map((c) => c.client.economy);
  const items: Record<ItemKey, { id: string; creator: number; avatar: boolean }> = {
    hat: { id: (await c0!.createItem({ kind: "avatar_hat", name: "Hat", price: 100 })).id, creator: 0, avatar: true },
    shirt: { id: (await c1!.createItem({ kind: "avatar_shirt", name: "Shirt", price: 250 })).id, creator: 1, avatar: true },
    pass: { id: (await c1!.createItem({ kind: "game_pass", name: "Pass", price: 400, experienceId: worlds[1].id })).id, creator: 1, avatar: false },
    gems: { id: (await c0!.createItem({ kind: "developer_product", name: "Gems", price: 30, experienceId: worlds[0].id })).id, creator: 0, avatar: false },
  };
  return { creators, buyers, worlds, items, users: [...creators, ...buyers] as Player[] };
}

async function checkInvariants(t: TestServer, model: Model, buyers: readonly Player[]): Promise<void> {
  const { wallets, ledger, orders } = await t.server.deps.storage.transact(async (tx) => ({
    wallets: await tx.query(tables.wallets, "primary"),
    ledger: await tx.query(tables.ledger, "primary"),
    orders: await tx.query(tables.orders, "primary"),
  }));
  let inWallets = 0;
  for (const w of wallets) {
    expect(Math.min(w.purchased, w.earned, w.pending), `no bucket of ${w.userId} is negative`).toBeGreaterThanOrEqual(0);
    const rows = ledger.filter((r) => r.userId === w.userId);
    const sum = (k: "purchased" | "earned" | "pending") => rows.reduce((s, r) => s + r[k], 0);
    expect({ purchased: sum("purchased"), earned: sum("earned"), pending: sum("pending") }).toEqual({ purchased: w.purchased, earned: w.earned, pending: w.pending });
    inWallets += w.purchased + w.earned + w.pending;
  }
  let inFlight = 0, paidOut = 0;
  for (const p of model.payouts.values()) {
    if (p.status === "requested" || p.status === "processing") inFlight += p.credits;
    if (p.status === "paid") paidOut += p.credits;
  }
  expect(inWallets + inFlight + model.fees).toBe(model.moneyIn - paidOut);
  expect(orders.reduce((s, o) => s + o.fee, 0)).toBe(model.fees);
  // Each purchase the buyers saw was charged exactly once.
  for (const [i, b] of buyers.entries()) {
    const charged = ledger.filter((r) => r.userId === b.user.userId && r.kind === "purchase").length;
    expect(charged).toBe([...model.purchases.values()].filter((x) => x === i).length);
  }
}

describe("economy money rules (model-based, concurrent callers)", () => {
  it("should never create, lose or double money", async () => {
    const retriesBefore = retriesSoFar();
    await fc.assert(fc.asyncProperty(fc.array(fc.array(action, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 10 }), async (batches) => {
      await using t = await testServer("in-process");
      t.server.clock.freeze();
      const s = await setup(t);
      const model: Model = { prices: { hat: 100, shirt: 250, pass: 400, gems: 30 }, moneyIn: 0, fees: 0, purchases: new Map(), payouts: new Map() };
      const requestKey = (buyer: number, n: number) => `req-${buyer}-${n}`;
      const run = async (a: Action): Promise<void> => {
        switch (a.kind) {
          case "topUp": {
            const b = s.buyers[a.buyer]!;
            const { checkoutUrl, orderId } = await b.client.economy.startTopUp({ packId: "pack_400", method: "sandbox" });
            const pay = () => t.fetch(checkoutUrl, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "action=pay" }).then((r) => r.text());
            const pages = await Promise.all(a.payTwice ? [pay(), pay()] : [pay()]);
            expect(pages.filter((p) => p.includes("Payment complete")), orderId).toHaveLength(1);
            model.moneyIn += 400;
            return;
          }
          case "grant":
            await t.server.operator.wallets.grant(s.users[a.user]!.user.userId, a.credits);
            model.moneyIn += a.credits;
            return;
          case "buy": return tolerate(async () => {
            const item = s.items[a.item];
            const price = model.prices[a.item] + (a.stale ? 1 : 0);
            const soldIn = a.soldIn === null ? "" : s.worlds[a.soldIn]!.id;
            const requestId = a.requestId === null ? "" : requestKey(a.buyer, a.requestId);
            const result = await s.buyers[a.buyer]!.client.economy.buyItem({ itemId: item.id, expectedPrice: price, soldInExperienceId: soldIn, requestId });
            if (model.purchases.has(result.transactionId)) return;
            model.purchases.set(result.transactionId, a.buyer);
            const split = splitSale({ price, avatarItem: item.avatar, creatorId: `c${item.creator}`, sellingCreatorId: a.soldIn === null ? null : `c${a.soldIn}` });
            model.fees += split.fee;
          });
          case "price":
            await s.creators[s.items[a.item].creator]!.client.economy.updateItem({ itemId: s.items[a.item].id, price: a.price });
            model.prices[a.item] = a.price;
            return;
          case "listed":
            await s.creators[s.items[a.item].creator]!.client.economy.updateItem({ itemId: s.items[a.item].id, status: a.listed ? "listed" : "delisted" });
            return;
          case "wait":
            t.server.clock.advance(a.hours * HOUR);
            return;
          case "payout": return tolerate(async () => {
            const requestId = a.requestId === null ? "" : `pay-${a.creator}-${a.requestId}`;
            const payout = await s.creators[a.creator]!.client.creator.requestPayout({ credits: a.credits, requestId });
            if (!model.payouts.has(payout.id)) model.payouts.set(payout.id, { credits: payout.credits, status: "requested" });
          });
          case "move": return tolerate(async () => {
            const id = [...model.payouts.keys()][a.payout];
            if (!id) return;
            await t.server.operator.payouts.advance(id, a.to, a.reason);
            model.payouts.get(id)!.status = a.to;
          });
        }
      };
      for (const batch of [...CONTENDED, ...batches]) {
        // Price changes within a batch race with purchases: a purchase either saw the old price or is refused.
        await Promise.all(batch.map(run));
        await checkInvariants(t, model, s.buyers);
      }
    }), { numRuns: storageKind === "memory" ? 30 : 10 });
    // PGlite has one connection, so its transactions take turns and never conflict.
    const retries = retriesSoFar() - retriesBefore;
    if (storageKind === "postgres") expect(retries, "transactions run again after a conflict").toBeGreaterThan(0);
  }, 120_000);
});

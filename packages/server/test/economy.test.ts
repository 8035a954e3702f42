import { describe, expect, it } from "vitest";
import { Code, tables } from "@playfield/core";
import { expectError, testServer, TRANSPORTS } from "./fixtures.js";
import { experience, player, topUp } from "./economy-fixtures.js";
import { knownOf } from "../src/services/economy/known-creators.js";

const DAY = 86_400_000;
const form = (body: string) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });

describe.each(TRANSPORTS)("EconomyService (%s)", (kind) => {
  describe("getWallet and listTransactions", () => {
    it("should start empty and record every change as a transaction, newest first", async () => {
      await using t = await testServer(kind);
      const a = await player(t);
      expect(await a.client.economy.getWallet()).toEqual({ purchased: 0, earned: 0, pending: 0, total: 0 });
      await t.server.operator.wallets.grant(a.user.userId, 50, "Welcome gift");
      await topUp(t, a.client, "pack_400");
      expect(await a.client.economy.getWallet()).toEqual({ purchased: 450, earned: 0, pending: 0, total: 450 });
      const { transactions } = await a.client.economy.listTransactions({});
      expect(transactions.map((x) => [x.kind, x.amount])).toEqual([["top_up", 400], ["grant", 50]]);
      expect(transactions[1]!.memo).toBe("Welcome gift");
      expect((await a.client.economy.listTransactions({ limit: 1 })).transactions).toHaveLength(1);
    });
  });

  describe("listCreditPacks", () => {
    it("should list the packs and every payment method, with the reason of those not configured", async () => {
      await using t = await testServer(kind);
      const { packs, methods } = await t.client().economy.listCreditPacks({});
      expect(packs.length).toBeGreaterThan(0);
      for (const p of packs) expect(p.credits > 0 && p.priceMinor > 0 && p.currency === "USD").toBe(true);
      expect(methods.map((m) => m.id).sort()).toEqual(["card", "sandbox", "store_apple", "store_google", "usdc"]);
      for (const m of methods) {
        expect(m.configured).toBe(m.id === "sandbox");
        if (!m.configured) expect(m.reason).not.toBe("");
      }
    });

    it("should not configure the sandbox in production", async () => {
      await using t = await testServer(kind, { environment: "production" });
      const { methods } = await t.client().economy.listCreditPacks({});
      const sandbox = methods.find((m) => m.id === "sandbox")!;
      expect(sandbox.configured).toBe(false);
      expect(sandbox.reason).toMatch(/development and test/);
      const a = await player(t);
      await expectError(a.client.economy.startTopUp({ packId: "pack_400", method: "sandbox" }), Code.FailedPrecondition, /^method: sandbox/);
    });
  });

  describe("startTopUp", () => {
    it("should serve a checkout page whose Pay button credits purchased once", async () => {
      await using t = await testServer(kind);
      const a = await player(t);
      const started = await a.client.economy.startTopUp({ packId: "pack_800", method: "sandbox" });
      expect(started.status).toBe("pending");
      expect(started.checkoutUrl).toMatch(/^https?:\/\/[^/]+\/checkout\//);
      if (kind === "listening") expect(started.checkoutUrl.startsWith(t.baseUrl)).toBe(true);
      const pageResponse = await t.fetch(started.checkoutUrl);
      expect(pageResponse.status).toBe(200);
      expect(pageResponse.headers.get("content-type")).toMatch(/^text\/html/);
      const html = await pageResponse.text();
      expect(html).toMatch(/<form method="post">/);
      expect(html).toMatch(/value="pay">Pay</);
      expect(html).toMatch(/value="cancel">Cancel</);
      expect(html).toContain("800 credits");
      expect((await a.client.economy.getWallet()).purchased).toBe(0);

      const paid = await t.fetch(started.checkoutUrl, form("action=pay"));
      expect(paid.status).toBe(200);
      expect(await paid.text()).toMatch(/Payment complete/);
      const again = await t.fetch(started.checkoutUrl, form("action=pay"));
      expect(await again.text()).toMatch(/already paid; nothing changed/);
      const late = await t.fetch(started.checkoutUrl, form("action=cancel"));
      expect(late.status).toBe(409);
      expect(await a.client.economy.getWallet()).toEqual({ purchased: 800, earned: 0, pending: 0, total: 800 });
      const { transactions } = await a.client.economy.listTransactions({});
      expect(transactions.map((x) => [x.kind, x.amount])).toEqual([["top_up", 800]]);
    });

    it("should complete an order once under concurrent Pay submissions", async () => {
      await using t = await testServer(kind);
      const a = await player(t);
      const { checkoutUrl } = await a.client.economy.startTopUp({ packId: "pack_400", method: "sandbox" });
      const pages = await Promise.all(Array.from({ length: 5 }, () => t.fetch(checkoutUrl, form("action=pay")).then((r) => r.text())));
      expect(pages.filter((p) => /Payment complete/.test(p))).toHaveLength(1);
      expect((await a.client.economy.getWallet()).purchased).toBe(400);
    });

    it("should charge nothing when cancelled, and refuse Pay afterwards", async () => {
      await using t = await testServer(kind);
      const a = await player(t);
      const { checkoutUrl } = await a.client.economy.startTopUp({ packId: "pack_400", method: "sandbox" });
      expect(await (await t.fetch(checkoutUrl, form("action=cancel"))).text()).toMatch(/cancelled/);
      expect((await t.fetch(checkoutUrl, form("action=pay"))).status).toBe(409);
      expect((await t.fetch(checkoutUrl, form("action=steal"))).status).toBe(400);
      expect((await a.client.economy.getWallet()).purchased).toBe(0);
      expect((await t.fetch(`${t.baseUrl}/checkout/top_nope`)).status).toBe(404);
    });

    it("should refuse methods that are not configured with failed_precondition and the reason", async () => {
      await using t = await testServer(kind);
      const a = await player(t);
      for (const method of ["", "card", "usdc", "store_apple", "store_google"]) {
        await expectError(a.client.economy.startTopUp({ packId: "pack_400", method }), Code.FailedPrecondition, /^method: \w+ is not configured: /);
      }
      await expectError(a.client.economy.startTopUp({ packId: "pack_nope", method: "sandbox" }), Code.NotFound, /^packId: /);
      await expectError(a.client.economy.startTopUp({ packId: "pack_400", method: "cash" }), Code.InvalidArgument, /^method: /);
    });
  });

  describe("createItem, updateItem, getItem, listItems", () => {
    it("should create avatar items, and game passes only in the creator's own experience", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const other = await player(t);
      const mine = await experience(t, maker.user.userId);
      const theirs = await experience(t, other.user.userId);
      const hidden = await experience(t, other.user.userId, { visibility: "draft" });
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Top hat", description: "Tall", price: 100 });
      expect(hat).toMatchObject({ kind: "avatar_hat", name: "Top hat", price: 100, creatorId: maker.user.userId, creatorName: maker.user.username, owned: false, sales: 0 });
      const pass = await maker.client.economy.createItem({ kind: "game_pass", name: "VIP", price: 250, experienceId: mine.id });
      expect(pass.experienceId).toBe(mine.id);
      await expectError(maker.client.economy.createItem({ kind: "game_pass", name: "VIP", price: 1 }), Code.InvalidArgument, /^experienceId: required/);
      await expectError(maker.client.economy.createItem({ kind: "developer_product", name: "Gems", price: 1, experienceId: theirs.id }), Code.PermissionDenied, /^experienceId: /);
      await expectError(maker.client.economy.createItem({ kind: "game_pass", name: "VIP", price: 1, experienceId: hidden.id }), Code.NotFound, /^experienceId: /);
      await expectError(maker.client.economy.createItem({ kind: "game_pass", name: "VIP", price: 1, experienceId: "exp_none" }), Code.NotFound, /^experienceId: /);
      await expectError(maker.client.economy.createItem({ kind: "avatar_shirt", name: "Shirt", price: 1, experienceId: mine.id }), Code.InvalidArgument, /^experienceId: only/);
      await expectError(maker.client.economy.createItem({ kind: "avatar_cape", name: "Cape", price: 1 }), Code.InvalidArgument, /^kind: /);
      await expectError(maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: -5 }), Code.InvalidArgument, /^price: /);
    });

    it("should let only the creator edit, keep a price of -1, and hide delisted items from lists", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const other = await player(t);
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Top hat", price: 100 });
      await expectError(other.client.economy.updateItem({ itemId: hat.id, price: 1 }), Code.PermissionDenied, /^itemId: only/);
      await expectError(maker.client.economy.updateItem({ itemId: "itm_none", price: 1 }), Code.NotFound, /^itemId: /);
      const renamed = await maker.client.economy.updateItem({ itemId: hat.id, name: "Silk hat", price: -1 });
      expect(renamed).toMatchObject({ name: "Silk hat", price: 100 });
      expect((await maker.client.economy.updateItem({ itemId: hat.id, price: 120 })).price).toBe(120);
      expect((await t.client().economy.listItems({})).items.map((i) => i.id)).toEqual([hat.id]);
      await maker.client.economy.updateItem({ itemId: hat.id, status: "delisted" });
      expect((await t.client().economy.listItems({})).items).toEqual([]);
      expect((await t.client().economy.getItem({ itemId: hat.id })).name).toBe("Silk hat");
      await maker.client.economy.updateItem({ itemId: hat.id, status: "listed" });
      expect((await t.client().economy.listItems({ kind: "avatar_hat" })).items).toHaveLength(1);
    });

    it("should filter by kind and experience, newest first, and show owned to signed-in callers", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const buyer = await player(t);
      const world = await experience(t, maker.user.userId);
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 10 });
      const shirt = await maker.client.economy.createItem({ kind: "avatar_shirt", name: "Shirt", price: 10 });
      const pass = await maker.client.economy.createItem({ kind: "game_pass", name: "Pass", price: 10, experienceId: world.id });
      expect((await t.client().economy.listItems({})).items.map((i) => i.id)).toEqual([pass.id, shirt.id, hat.id]);
      expect((await t.client().economy.listItems({ kind: "avatar_shirt" })).items.map((i) => i.id)).toEqual([shirt.id]);
      expect((await t.client().economy.listItems({ experienceId: world.id })).items.map((i) => i.id)).toEqual([pass.id]);
      expect((await t.client().economy.listItems({ limit: 2 })).items).toHaveLength(2);
      await t.server.operator.wallets.grant(buyer.user.userId, 100);
      await buyer.client.economy.buyItem({ itemId: shirt.id, expectedPrice: 10 });
      const seen = (await buyer.client.economy.listItems({})).items;
      expect(seen.map((i) => [i.id, i.owned, i.sales])).toEqual([[pass.id, false, 0], [shirt.id, true, 1], [hat.id, false, 0]]);
      expect((await t.client().economy.getItem({ itemId: shirt.id })).owned).toBe(false);
      expect((await buyer.client.economy.getItem({ itemId: shirt.id })).owned).toBe(true);
      await expectError(t.client().economy.getItem({ itemId: "itm_none" }), Code.NotFound, /^itemId: /);
    });
  });

  describe("buyItem", () => {
    it("should refuse a changed price, too few credits, a delisted item, and guests, charging nothing", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const buyer = await player(t);
      const guest = await player(t, { guest: true });
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 100 });
      await t.server.operator.wallets.grant(buyer.user.userId, 150);
      await maker.client.economy.updateItem({ itemId: hat.id, price: 120 });
      await expectError(buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 100 }), Code.FailedPrecondition, /^expectedPrice: the price is now 120/);
      const gem = await maker.client.economy.createItem({ kind: "avatar_emote", name: "Dance", price: 200 });
      await expectError(buyer.client.economy.buyItem({ itemId: gem.id, expectedPrice: 200 }), Code.FailedPrecondition, /^not enough credits/);
      await maker.client.economy.updateItem({ itemId: hat.id, status: "delisted" });
      await expectError(buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 120 }), Code.FailedPrecondition, /^itemId: the item is not on sale/);
      await expectError(guest.client.economy.buyItem({ itemId: gem.id, expectedPrice: 200 }), Code.PermissionDenied);
      await expectError(maker.client.economy.buyItem({ itemId: gem.id, expectedPrice: 200 }), Code.FailedPrecondition, /^itemId: creators cannot buy/);
      await expectError(buyer.client.economy.buyItem({ itemId: "itm_none", expectedPrice: 1 }), Code.NotFound, /^itemId: /);
      expect(await buyer.client.economy.getWallet()).toEqual({ purchased: 150, earned: 0, pending: 0, total: 150 });
      expect((await buyer.client.economy.listTransactions({})).transactions).toHaveLength(1);
    });

    it("should pay the item's and the experience's creators when the creators this server remembers are wrong", async () => {
      await using t = await testServer(kind);
      const [maker, host, buyer, stranger] = [await player(t), await player(t), await player(t), await player(t)];
      const world = await experience(t, host.user.userId);
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 100 });
      await t.server.operator.wallets.grant(buyer.user.userId, 1000);
      // BuyItem reads the remembered creators' rows with the item: a wrong guess must cost a read, never money.
      const known = knownOf(t.server.deps).creators;
      known.set(hat.id, stranger.user.userId);
      known.set(world.id, stranger.user.userId);
      const bought = await buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 100, soldInExperienceId: world.id, requestId: "r1" });
      expect(bought.item.creatorName).toBe(maker.user.username);
      expect(await maker.client.economy.getWallet()).toMatchObject({ pending: 70 });
      expect(await host.client.economy.getWallet()).toMatchObject({ pending: 10 });
      expect(await stranger.client.economy.getWallet()).toEqual({ purchased: 0, earned: 0, pending: 0, total: 0 });
      expect([known.get(hat.id), known.get(world.id)]).toEqual([maker.user.userId, host.user.userId]);
      known.set(hat.id, stranger.user.userId);
      const again = await buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 100, soldInExperienceId: world.id, requestId: "r1" });
      expect(again).toEqual(bought);
    });

    it("should sell avatar items and game passes once, developer products again and again", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const buyer = await player(t);
      const world = await experience(t, maker.user.userId);
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 10 });
      const pass = await maker.client.economy.createItem({ kind: "game_pass", name: "Pass", price: 10, experienceId: world.id });
      const gems = await maker.client.economy.createItem({ kind: "developer_product", name: "Gems", price: 10, experienceId: world.id });
      await t.server.operator.wallets.grant(buyer.user.userId, 100);
      for (const item of [hat, pass]) {
        const bought = await buyer.client.economy.buyItem({ itemId: item.id, expectedPrice: 10 });
        expect(bought.item.owned).toBe(true);
        await expectError(buyer.client.economy.buyItem({ itemId: item.id, expectedPrice: 10 }), Code.AlreadyExists, /^itemId: already owned/);
      }
      await buyer.client.economy.buyItem({ itemId: gems.id, expectedPrice: 10 });
      const last = await buyer.client.economy.buyItem({ itemId: gems.id, expectedPrice: 10 });
      // Bought again and again, owned by no one (on a database the server no longer reads the ownership row).
      expect(last.item.owned).toBe(false);
      expect(last.wallet.purchased).toBe(60);
      expect(last.item.sales).toBe(2);
      const inventory = await buyer.client.economy.listInventory({});
      expect(inventory.items.map((i) => i.id)).toEqual([pass.id, hat.id]);
      expect((await buyer.client.economy.listInventory({ kind: "avatar_hat" })).items.map((i) => i.id)).toEqual([hat.id]);
      expect((await buyer.client.economy.listInventory({ kind: "developer_product" })).items).toEqual([]);
    });

    it("should count sales without writing the item row: the row's own count (earlier versions') plus its shards, in every view", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const buyers = await Promise.all([player(t), player(t), player(t)]);
      const world = await experience(t, maker.user.userId);
      const gems = await maker.client.economy.createItem({ kind: "developer_product", name: "Gems", price: 10, experienceId: world.id });
      // Sold 5 times by a version that counted in the item row.
      const storage = t.server.deps.storage;
      const legacy = await storage.transact(async (tx) => {
        const row = { ...(await tx.get(tables.items, gems.id))!, sales: 5 };
        await tx.put(tables.items, row);
        return row;
      });
      for (const buyer of buyers) await t.server.operator.wallets.grant(buyer.user.userId, 100);
      const answers = [];
      for (const buyer of buyers) for (let i = 0; i < 2; i++) answers.push((await buyer.client.economy.buyItem({ itemId: gems.id, expectedPrice: 10 })).item.sales);
      expect(answers).toEqual([6, 7, 8, 9, 10, 11]);
      const [row, shards] = await storage.transact(async (tx) => [await tx.get(tables.items, gems.id), await tx.getMany(tables.itemSales, tables.itemSalesIds(gems.id))] as const);
      expect(row).toEqual(legacy);
      expect(shards.reduce((sum, shard) => sum + (shard?.sales ?? 0), 0)).toBe(6);
      expect((await t.client().economy.getItem({ itemId: gems.id })).sales).toBe(11);
      expect((await t.client().economy.listItems({ experienceId: world.id })).items.map((i) => i.sales)).toEqual([11]);
      expect((await maker.client.creator.listMyItems({})).items.map((i) => i.sales)).toEqual([11]);
    });

    it("should spend purchased first, then earned, and never pending", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const seller = await player(t);
      const buyer = await player(t);
      const hat = await seller.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 1000 });
      await t.server.operator.wallets.grant(buyer.user.userId, 1000);
      await buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 1000 });
      expect(await seller.client.economy.getWallet()).toEqual({ purchased: 0, earned: 0, pending: 700, total: 0 });
      const shirt = await maker.client.economy.createItem({ kind: "avatar_shirt", name: "Shirt", price: 500 });
      await expectError(seller.client.economy.buyItem({ itemId: shirt.id, expectedPrice: 500 }), Code.FailedPrecondition, /^not enough credits/);
      t.server.clock.advance(3 * DAY);
      await t.server.operator.wallets.grant(seller.user.userId, 100);
      const bought = await seller.client.economy.buyItem({ itemId: shirt.id, expectedPrice: 500 });
      expect(bought.wallet).toEqual({ purchased: 0, earned: 300, pending: 0, total: 300 });
      const [purchase] = (await seller.client.economy.listTransactions({})).transactions;
      expect(purchase).toMatchObject({ kind: "purchase", amount: -500, id: bought.transactionId });
    });

    it("should split 70 % to the creator and 10 % to another creator's selling experience, held 3 days", async () => {
      await using t = await testServer(kind);
      // Time moves only when the test says: on a database the purchases below can take longer than the 1 s margin it checks.
      t.server.clock.freeze();
      const maker = await player(t);
      const host = await player(t);
      const buyer = await player(t);
      const hostWorld = await experience(t, host.user.userId);
      const makerWorld = await experience(t, maker.user.userId);
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 1000 });
      const shirt = await maker.client.economy.createItem({ kind: "avatar_shirt", name: "Shirt", price: 1000 });
      const pass = await maker.client.economy.createItem({ kind: "game_pass", name: "Pass", price: 1000, experienceId: makerWorld.id });
      await t.server.operator.wallets.grant(buyer.user.userId, 3000);
      await buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 1000, soldInExperienceId: hostWorld.id });
      await buyer.client.economy.buyItem({ itemId: shirt.id, expectedPrice: 1000, soldInExperienceId: makerWorld.id });
      await buyer.client.economy.buyItem({ itemId: pass.id, expectedPrice: 1000, soldInExperienceId: hostWorld.id });
      expect(await maker.client.economy.getWallet()).toEqual({ purchased: 0, earned: 0, pending: 2100, total: 0 });
      expect(await host.client.economy.getWallet()).toEqual({ purchased: 0, earned: 0, pending: 100, total: 0 });
      await expectError(buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 1000, soldInExperienceId: "exp_none" }), Code.NotFound, /^soldInExperienceId: /);
      t.server.clock.advance(3 * DAY - 1000);
      expect((await maker.client.economy.getWallet()).pending).toBe(2100);
      t.server.clock.advance(1000);
      expect(await maker.client.economy.getWallet()).toEqual({ purchased: 0, earned: 2100, pending: 0, total: 2100 });
      expect(await host.client.economy.getWallet()).toEqual({ purchased: 0, earned: 100, pending: 0, total: 100 });
      const { transactions } = await host.client.economy.listTransactions({});
      expect(transactions.map((x) => [x.kind, x.amount])).toEqual([["sale", 100]]);
    });

    it("should treat requestId as the idempotency key: retries and concurrent duplicates charge once", async () => {
      await using t = await testServer(kind);
      const maker = await player(t);
      const buyer = await player(t);
      const gems = await maker.client.economy.createItem({ kind: "developer_product", name: "Gems", price: 10, experienceId: (await experience(t, maker.user.userId)).id });
      const hat = await maker.client.economy.createItem({ kind: "avatar_hat", name: "Hat", price: 10 });
      await t.server.operator.wallets.grant(buyer.user.userId, 100);
      const results = await Promise.all(Array.from({ length: 6 }, () => buyer.client.economy.buyItem({ itemId: gems.id, expectedPrice: 10, requestId: "r-1" })));
      expect(new Set(results.map((r) => r.transactionId)).size).toBe(1);
      for (const r of results) expect(r.wallet.purchased).toBe(90);
      // A retry after a price change still answers the first result.
      await maker.client.economy.updateItem({ itemId: gems.id, price: 20 });
      const retried = await buyer.client.economy.buyItem({ itemId: gems.id, expectedPrice: 10, requestId: "r-1" });
      expect(retried.transactionId).toBe(results[0]!.transactionId);
      await expectError(buyer.client.economy.buyItem({ itemId: hat.id, expectedPrice: 10, requestId: "r-1" }), Code.InvalidArgument, /^requestId: /);
      expect((await buyer.client.economy.getWallet()).purchased).toBe(90);
      expect((await maker.client.economy.getItem({ itemId: gems.id })).sales).toBe(1);
    });
  });
});

import { defineService } from "./define-service.js";
import * as s from "../schemas/economy.js";
import { Item } from "../schemas/common.js";

export const EconomyService = defineService({
  typeName: "svc.platform.v1.EconomyService",
  localName: "economy",
  summary: "Wallet, credit packs, top-ups, items, buying, inventory.",
  methods: {
    getWallet: { input: s.GetWalletRequest, output: s.Wallet, auth: "account", summary: "The caller's credit balances." },
    listTransactions: { input: s.ListTransactionsRequest, output: s.ListTransactionsResponse, auth: "account", summary: "The caller's wallet transactions, newest first." },
    listCreditPacks: { input: s.ListCreditPacksRequest, output: s.ListCreditPacksResponse, auth: "none", summary: "Credit packs on sale and every payment method, configured or not." },
    startTopUp: { input: s.StartTopUpRequest, output: s.StartTopUpResponse, auth: "account", summary: "Starts a top-up with a payment provider; returns the checkout URL." },
    listItems: { input: s.ListItemsRequest, output: s.ListItemsResponse, auth: "optional", summary: "Items on sale, by kind or experience; signed-in callers get owned." },
    getItem: { input: s.ItemRef, output: Item, auth: "optional", summary: "One item; signed-in callers get owned." },
    createItem: { input: s.CreateItemRequest, output: Item, auth: "account", summary: "Puts a new item on sale, created by the caller." },
    updateItem: { input: s.UpdateItemRequest, output: Item, auth: "account", summary: "Creator edits name, description, price, or delists." },
    buyItem: { input: s.BuyItemRequest, output: s.BuyItemResponse, auth: "account", summary: "Buys an item; rejected if the price changed from expectedPrice; requestId is the idempotency key." },
    listInventory: { input: s.ListInventoryRequest, output: s.ListInventoryResponse, auth: "account", summary: "Items the caller owns." },
  },
});

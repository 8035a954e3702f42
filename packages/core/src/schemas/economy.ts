import { z } from "zod";
import { bool, int64, list, message, string, timestamp } from "../wire/fields.js";
import { empty, Item, ITEM_KINDS, limit } from "./common.js";

/*
 * Schemas of EconomyService, in the spec's field order (the order gives the
 * proto field numbers). Caps the spec leaves open: ids 1-64 characters; item
 * name 1-50, description at most 1000; price 0 to 1,000,000,000 credits;
 * `channel` at most 32; `requestId` at most 128 (empty: no idempotency key);
 * ListItems and ListTransactions limit at most 100. Item kinds are ITEM_KINDS.
 */

/** Kinds of wallet transactions. */
export const TRANSACTION_KINDS = ["top_up", "purchase", "sale", "refund", "grant"] as const;
/** Payment methods of a top-up; "" in a request means `card`. */
export const PAYMENT_METHODS = ["card", "sandbox", "usdc", "store_apple", "store_google"] as const;
/** Listing states UpdateItem moves an item between; "" means unchanged. */
export const ITEM_STATUSES = ["listed", "delisted"] as const;

export const ITEM_NAME_MAX = 50;
export const ITEM_DESCRIPTION_MAX = 1000;
export const PRICE_MAX = 1_000_000_000;
export const REQUEST_ID_MAX = 128;

const max = (n: number) => z.string().max(n, { error: `at most ${n} characters` });
const id = () => string(z.string().min(1, { error: "required" }).max(64, { error: "at most 64 characters" }));
/** A string that is one of `values`, or "" when `allowEmpty`. */
const oneOf = (values: readonly string[], allowEmpty: boolean) =>
  string(z.string().refine((v) => (allowEmpty && v === "") || values.includes(v), { error: `one of ${values.join(", ")}` }));
const price = (min: number) =>
  int64(z.int().min(min, { error: min < 0 ? `at least ${min}` : "must not be negative" }).max(PRICE_MAX, { error: `at most ${PRICE_MAX}` }));

export const Wallet = message("Wallet", {
  purchased: int64(),
  earned: int64(),
  pending: int64(),
  total: int64(),
});

export const Transaction = message("Transaction", {
  id: string(),
  kind: string(),
  amount: int64(),
  memo: string(),
  createdAt: timestamp(),
});

export const CreditPack = message("CreditPack", {
  id: string(),
  credits: int64(),
  priceMinor: int64(),
  currency: string(),
});

export const PaymentMethod = message("PaymentMethod", {
  id: string(),
  label: string(),
  configured: bool(),
  reason: string(),
});

export const ListCreditPacksRequest = message("ListCreditPacksRequest", { channel: string(max(32)) });
export const ListCreditPacksResponse = message("ListCreditPacksResponse", { packs: list(CreditPack), methods: list(PaymentMethod) });

export const StartTopUpRequest = message("StartTopUpRequest", { packId: id(), method: oneOf(PAYMENT_METHODS, true) });
export const StartTopUpResponse = message("StartTopUpResponse", { orderId: string(), checkoutUrl: string(), status: string() });

export const CreateItemRequest = message("CreateItemRequest", {
  kind: oneOf(ITEM_KINDS, false),
  name: string(z.string().min(1, { error: "required" }).max(ITEM_NAME_MAX, { error: `at most ${ITEM_NAME_MAX} characters` })),
  description: string(max(ITEM_DESCRIPTION_MAX)),
  price: price(0),
  experienceId: string(max(64)),
});

/** Empty strings and a price of -1 keep the current value. */
export const UpdateItemRequest = message("UpdateItemRequest", {
  itemId: id(),
  name: string(max(ITEM_NAME_MAX)),
  description: string(max(ITEM_DESCRIPTION_MAX)),
  price: price(-1),
  status: oneOf(ITEM_STATUSES, true),
});

export const ItemRef = message("ItemRef", { itemId: id() });

export const BuyItemRequest = message("BuyItemRequest", {
  itemId: id(),
  expectedPrice: price(0),
  soldInExperienceId: string(max(64)),
  requestId: string(max(REQUEST_ID_MAX)),
});
export const BuyItemResponse = message("BuyItemResponse", { wallet: Wallet, item: Item, transactionId: string() });

export const ListItemsRequest = message("ListItemsRequest", {
  kind: oneOf(ITEM_KINDS, true),
  experienceId: string(max(64)),
  limit: limit(100),
});
export const ListInventoryRequest = message("ListInventoryRequest", { kind: oneOf(ITEM_KINDS, true) });

export const ListItemsResponse = message("ListItemsResponse", { items: list(Item) });
export const ListInventoryResponse = message("ListInventoryResponse", { items: list(Item) });
/** CreatorService.ListMyItems answers it; the spec lists it with the economy types. */
export const ListMyItemsResponse = message("ListMyItemsResponse", { items: list(Item) });

export const ListTransactionsRequest = message("ListTransactionsRequest", { limit: limit(100) });
export const ListTransactionsResponse = message("ListTransactionsResponse", { transactions: list(Transaction) });

export const GetWalletRequest = empty("GetWalletRequest");

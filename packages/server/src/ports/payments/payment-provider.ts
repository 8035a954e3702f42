import type { TopUpOrderRow } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";

/**
 * A payment provider behind StartTopUp: it says whether it is configured on
 * this server (and why not), and starts a checkout for a top-up order. A real
 * provider (cards, stores, stablecoins) implements this port; its webhook or
 * return page completes the order with `completeTopUp`.
 */
export interface PaymentProvider {
  /** The method id clients send: `card`, `sandbox`, `usdc`, `store_apple`, `store_google`. */
  id: string;
  label: string;
  /** Null when configured on this server; otherwise why not (shown to clients). */
  unavailableReason(deps: ServerDeps): string | null;
  /**
   * The URL the buyer opens to pay, for an order just stored as `pending`. `origin` is this server's configured
   * public address (`publicUrl`; "" when it has none, for a URL relative to the server), never a request's `Host`.
   */
  checkoutUrl(order: TopUpOrderRow, origin: string): string;
}

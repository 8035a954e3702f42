import type { PaymentProvider } from "./payment-provider.js";
import { sandboxProvider } from "./sandbox-provider.js";
import { createUnconfiguredProvider } from "./unconfigured-provider.js";

export type { PaymentProvider } from "./payment-provider.js";
export { CHECKOUT_PATH } from "./sandbox-provider.js";

/** Every payment method, in the order ListCreditPacks lists them. A real provider replaces its entry. */
export const paymentProviders: readonly PaymentProvider[] = [
  createUnconfiguredProvider("card", "Card", "no card payment provider is configured on this server"),
  sandboxProvider,
  createUnconfiguredProvider("usdc", "USDC", "no USDC payment provider is configured on this server"),
  createUnconfiguredProvider("store_apple", "App Store", "App Store purchases are not configured on this server"),
  createUnconfiguredProvider("store_google", "Google Play", "Google Play purchases are not configured on this server"),
];

/** The provider of a method id ("" means `card`). */
export function providerOf(method: string): PaymentProvider | undefined {
  const id = method === "" ? "card" : method;
  return paymentProviders.find((p) => p.id === id);
}

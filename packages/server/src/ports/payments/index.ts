import type { PaymentProvider } from "./payment-provider.js";
import { sandboxProvider } from "./sandbox-provider.js";
import { createUnconfiguredProvider } from "./unconfigured-provider.js";

export type { PaymentProvider } from "./payment-provider.js";
export { CHECKOUT_PATH } from "./sandbox-provider.js";

/** The default payment methods, in the order ListCreditPacks lists them: only the sandbox is configured. */
export const defaultPaymentProviders: readonly PaymentProvider[] = [
  createUnconfiguredProvider("card", "Card", "no card payment provider is configured on this server"),
  sandboxProvider,
  createUnconfiguredProvider("usdc", "USDC", "no USDC payment provider is configured on this server"),
  createUnconfiguredProvider("store_apple", "App Store", "App Store purchases are not configured on this server"),
  createUnconfiguredProvider("store_google", "Google Play", "Google Play purchases are not configured on this server"),
];

/** The server's providers: the defaults, with any given provider replacing the default of its id. */
export function withProviders(given: readonly PaymentProvider[] = []): PaymentProvider[] {
  const byId = new Map(given.map((p) => [p.id, p]));
  return [...defaultPaymentProviders.map((p) => byId.get(p.id) ?? p), ...given.filter((p) => !defaultPaymentProviders.some((d) => d.id === p.id))];
}

/** The provider of a method id ("" means `card`). */
export function providerOf(providers: readonly PaymentProvider[], method: string): PaymentProvider | undefined {
  const id = method === "" ? "card" : method;
  return providers.find((p) => p.id === id);
}

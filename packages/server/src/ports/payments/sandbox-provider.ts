import type { PaymentProvider } from "./payment-provider.js";

/** Where the sandbox checkout page of an order is served. */
export const CHECKOUT_PATH = "/checkout/";

/**
 * The sandbox provider: a local checkout page on this server with Pay and
 * Cancel buttons, no money involved. Configured in the development and test
 * environments only.
 */
export const sandboxProvider: PaymentProvider = {
  id: "sandbox",
  label: "Sandbox (test payments)",
  unavailableReason: (deps) =>
    deps.config.environment === "production" ? "the sandbox is only available in development and test environments" : null,
  checkoutUrl: (order, origin) => `${origin}${CHECKOUT_PATH}${encodeURIComponent(order.id)}`,
};

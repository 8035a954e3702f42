import type { PaymentProvider } from "./payment-provider.js";

/** A provider this server has no account with: listed, never configured, with the reason. */
export function createUnconfiguredProvider(id: string, label: string, reason: string): PaymentProvider {
  return {
    id,
    label,
    unavailableReason: () => reason,
    checkoutUrl: () => {
      throw new Error(`${id} is not configured`);
    },
  };
}

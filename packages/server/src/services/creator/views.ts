import type { CreatorService, MethodOutput, PayoutRow } from "@playfield/core";
import { iso } from "../identity/accounts.js";

type Payout = MethodOutput<typeof CreatorService.methods.requestPayout>;

/** A payout as the API shows it. */
export function payoutView(row: PayoutRow): Payout {
  return {
    id: row.id,
    credits: row.credits,
    amountUsd: row.amountUsd,
    method: row.method,
    status: row.status,
    createdAt: iso(row.createdAt),
    failureReason: row.failureReason,
    updatedAt: iso(row.updatedAt),
  };
}

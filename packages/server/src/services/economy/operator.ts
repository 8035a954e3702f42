import { canMovePayout, fail, returnsCredits, tables, withChanges, type PayoutRow, type PayoutStatus } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import { post } from "./ledger.js";
import { payoutView } from "../creator/views.js";

/*
 * The operator interface of the economy: what a payment back office does and
 * the public API does not (move payouts, grant credits). Reached in process
 * as `server.operator`, never over HTTP.
 */

/** Operator actions on payouts and wallets. */
export interface EconomyOperator {
  payouts: {
    /**
     * Moves a payout: requested → processing → paid, processing → failed,
     * paid → reversed. `failed` and `reversed` return the credits to
     * `earned` (a `refund` transaction) and keep `reason` as `failureReason`.
     * Other moves throw `failed_precondition`.
     */
    advance(payoutId: string, to: PayoutStatus, reason?: string): Promise<ReturnType<typeof payoutView>>;
  };
  wallets: {
    /** Grants credits (a `grant` transaction into `purchased`: spendable, not cash-out-able). */
    grant(userId: string, credits: number, memo?: string): Promise<void>;
  };
}

export function createEconomyOperator(deps: ServerDeps): EconomyOperator {
  return {
    payouts: {
      advance: (payoutId, to, reason = "") => deps.storage.transact(async (tx) => {
        const payout = await tx.get(tables.payouts, payoutId);
        if (!payout) throw fail.notFound("payoutId: no such payout");
        if (!canMovePayout(payout.status, to)) throw fail.precondition(`status: a ${payout.status} payout cannot become ${to}`);
        const now = deps.clock.now();
        const next = withChanges(payout, { status: to, updatedAt: now, failureReason: returnsCredits(to) ? reason || to : payout.failureReason });
        if (returnsCredits(to)) {
          await post(tx, deps, {
            userId: payout.userId, kind: "refund", amount: payout.credits, earned: payout.credits,
            memo: `Payout ${payout.id} ${to}${reason ? `: ${reason}` : ""}`, ref: payout.id,
          });
        }
        await tx.put(tables.payouts, next);
        return payoutView(next);
      }),
    },
    wallets: {
      async grant(userId, credits, memo = "Grant") {
        if (!Number.isSafeInteger(credits) || credits <= 0) throw fail.invalid("credits: a positive whole number");
        await deps.storage.transact(async (tx) => {
          if (!(await tx.get(tables.users, userId))) throw fail.notFound("userId: no such user");
          await post(tx, deps, { userId, kind: "grant", amount: credits, purchased: credits, memo, ref: "" });
        });
      },
    },
  };
}

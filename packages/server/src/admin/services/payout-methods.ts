import { ADMIN_PAGE_DEFAULT, canMovePayout, fail, isoTime, tables, withChanges, type PayoutAdminService, type PayoutRow, type PayoutStatusName } from "@playfield/core";
import { post } from "../../services/economy/ledger.js";
import type { AdminServiceImpl } from "../admin-router.js";

const payoutOf = (row: PayoutRow) => ({
  id: row.id, userId: row.userId, credits: row.credits, amountUsd: row.amountUsd, method: row.method, status: row.status,
  failureReason: row.failureReason, createdAt: isoTime(row.createdAt), updatedAt: isoTime(row.updatedAt),
});

/** PayoutAdminService: the queue of creators' payouts. */
export const payoutMethods: AdminServiceImpl<typeof PayoutAdminService> = {
  async listPayouts(req, ctx) {
    const status = (req.status || "requested") as PayoutStatusName;
    const size = req.pageSize || ADMIN_PAGE_DEFAULT;
    if (req.pageToken !== "" && !/^\d{1,16}$/.test(req.pageToken)) throw fail.invalid("pageToken: not a page token this method gave");
    const range = req.pageToken === "" ? {} : { range: { gt: Number(req.pageToken) } };
    const rows = await ctx.deps.storage.transact((tx) => tx.query(tables.payouts, "byStatus", { equals: [status], limit: size + 1, ...range }), { readOnly: true });
    const page = rows.slice(0, size);
    return { payouts: page.map(payoutOf), nextPageToken: rows.length > size ? String(page[page.length - 1]!.seq) : "" };
  },

  async approvePayout(req, ctx) {
    return ctx.deps.storage.transact(async (tx) => {
      const payout = await tx.get(tables.payouts, req.payoutId);
      if (!payout) throw fail.notFound("payoutId: no such payout");
      if (!canMovePayout(payout.status, "processing")) throw fail.precondition(`payoutId: a ${payout.status} payout cannot be approved`);
      const next = withChanges(payout, { status: "processing", updatedAt: ctx.deps.clock.now() });
      await tx.put(tables.payouts, next);
      await ctx.audit(tx, { action: "PayoutAdminService.ApprovePayout", target: `payout:${payout.id}`, before: payoutOf(payout), after: payoutOf(next), reason: req.note });
      return payoutOf(next);
    });
  },

  async rejectPayout(req, ctx) {
    return ctx.deps.storage.transact(async (tx) => {
      const payout = await tx.get(tables.payouts, req.payoutId);
      if (!payout) throw fail.notFound("payoutId: no such payout");
      // A requested payout is rejected as if approved and then failed: the moves of the payout rules, in one transaction.
      if (payout.status !== "requested" && !canMovePayout(payout.status, "failed")) throw fail.precondition(`payoutId: a ${payout.status} payout cannot be rejected`);
      const next = withChanges(payout, { status: "failed", failureReason: req.reason, updatedAt: ctx.deps.clock.now() });
      await post(tx, ctx.deps, {
        userId: payout.userId, kind: "refund", amount: payout.credits, earned: payout.credits, memo: `Payout ${payout.id} failed: ${req.reason}`, ref: payout.id,
      });
      await tx.put(tables.payouts, next);
      await ctx.audit(tx, { action: "PayoutAdminService.RejectPayout", target: `payout:${payout.id}`, before: payoutOf(payout), after: payoutOf(next), reason: req.reason });
      return payoutOf(next);
    });
  },
};

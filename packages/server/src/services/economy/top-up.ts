import { fail, tables, withChanges, type TopUpOrderRow } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import { post } from "./ledger.js";

/*
 * Completing and cancelling top-up orders: what a payment provider's return
 * page or webhook calls. Each order completes at most once; a second
 * completion (or a cancel after it) changes nothing.
 */

export type TopUpOutcome = "paid" | "cancelled" | "already_paid" | "already_cancelled";

/** Marks a pending order paid and credits `purchased` with a `top_up` transaction, once. */
export async function completeTopUp(deps: ServerDeps, orderId: string): Promise<{ order: TopUpOrderRow; outcome: TopUpOutcome }> {
  return deps.storage.transact(async (tx) => {
    const order = await tx.get(tables.topUpOrders, orderId);
    if (!order) throw fail.notFound("orderId: no such order");
    if (order.status !== "pending") return { order, outcome: order.status === "paid" ? "already_paid" : "already_cancelled" } as const;
    const paid = withChanges(order, { status: "paid", completedAt: deps.clock.now() });
    await tx.put(tables.topUpOrders, paid);
    await post(tx, deps, {
      userId: order.userId, kind: "top_up", amount: order.credits, purchased: order.credits,
      memo: `Top-up: ${order.credits} credits (${order.packId}, ${order.method})`, ref: order.id,
    });
    return { order: paid, outcome: "paid" } as const;
  });
}

/** Cancels a pending order; a paid or cancelled one stays as it is. */
export async function cancelTopUp(deps: ServerDeps, orderId: string): Promise<{ order: TopUpOrderRow; outcome: TopUpOutcome }> {
  return deps.storage.transact(async (tx) => {
    const order = await tx.get(tables.topUpOrders, orderId);
    if (!order) throw fail.notFound("orderId: no such order");
    if (order.status !== "pending") return { order, outcome: order.status === "paid" ? "already_paid" : "already_cancelled" } as const;
    const cancelled = withChanges(order, { status: "cancelled", completedAt: deps.clock.now() });
    await tx.put(tables.topUpOrders, cancelled);
    return { order: cancelled, outcome: "cancelled" } as const;
  });
}

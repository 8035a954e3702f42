import { PlayfieldError, tables } from "@playfield/core";
import type { RawRoute, RouteAnswer } from "../../routes/route.js";
import type { ServerDeps } from "../../server-deps.js";
import { cancelTopUp, completeTopUp, type TopUpOutcome } from "./top-up.js";
import { CHECKOUT_PATH } from "../../ports/payments/index.js";
import { decodeSegment } from "../../routes/path-segment.js";

/*
 * The sandbox checkout page: `GET /checkout/<orderId>` shows the order with
 * Pay and Cancel buttons; `POST` with the form field `action=pay` (or
 * `cancel`) completes it. Served in development and test environments only.
 */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function page(status: number, title: string, body: string): RouteAnswer {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`
    + `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-frame-options": "DENY" },
    body: html,
  };
}

const OUTCOME_TEXT: Record<TopUpOutcome, string> = {
  paid: "Payment complete: the credits are in your wallet.",
  cancelled: "Payment cancelled: nothing was charged.",
  already_paid: "This order was already paid; nothing changed.",
  already_cancelled: "This order was cancelled; nothing changed.",
};

/** The checkout page route, built with the server's parts. */
export function checkoutRoute(deps: ServerDeps): RawRoute {
  return async (request) => {
    if (!request.path.startsWith(CHECKOUT_PATH) || deps.config.environment === "production") return null;
    const orderId = decodeSegment(request.path.slice(CHECKOUT_PATH.length));
    if (orderId === null) return page(404, "No such order", "<p>This checkout link is not valid.</p>");
    if (request.method === "GET") {
      const order = await deps.storage.transact((tx) => tx.get(tables.topUpOrders, orderId));
      if (!order) return page(404, "No such order", "<p>This checkout link is not valid.</p>");
      const what = `<p>${order.credits} credits for ${(order.priceMinor / 100).toFixed(2)} ${escapeHtml(order.currency)} (sandbox: no money moves).</p>`;
      if (order.status !== "pending") return page(200, `Order ${order.status}`, `${what}<p>Status: ${order.status}.</p>`);
      const form = `<form method="post"><button name="action" value="pay">Pay</button> `
        + `<button name="action" value="cancel">Cancel</button></form>`;
      return page(200, "Sandbox checkout", `${what}${form}`);
    }
    if (request.method !== "POST") return page(405, "Method not allowed", "<p>Use GET or POST.</p>");
    let form = "";
    try {
      form = await request.text();
    } catch {
      // A body that cannot be read names no action: answered below as a bad request.
    }
    const action = new URLSearchParams(form).get("action");
    if (action !== "pay" && action !== "cancel") return page(400, "Bad request", "<p>action: pay or cancel.</p>");
    try {
      const { order, outcome } = action === "pay" ? await completeTopUp(deps, orderId) : await cancelTopUp(deps, orderId);
      const conflict = (action === "pay" && outcome === "already_cancelled") || (action === "cancel" && outcome === "already_paid");
      return page(conflict ? 409 : 200, `Order ${order.status}`, `<p>${OUTCOME_TEXT[outcome]}</p>`);
    } catch (error) {
      if (error instanceof PlayfieldError) return page(404, "No such order", "<p>This checkout link is not valid.</p>");
      throw error;
    }
  };
}

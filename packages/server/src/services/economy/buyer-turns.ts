import type { ServerDeps } from "../../server-deps.js";
import { inTurn } from "../turns.js";

/** Runs `task` once the purchases started before it by `buyerId` on this server have settled (they all write the buyer's wallet: turns.ts). */
export function inBuyerTurn<T>(deps: ServerDeps, buyerId: string, task: () => Promise<T>): Promise<T> {
  return inTurn(deps, `buyer:${buyerId}`, task);
}

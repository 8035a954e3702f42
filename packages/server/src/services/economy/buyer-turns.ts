import type { ServerDeps } from "../../server-deps.js";

/*
 * One purchase at a time per buyer in a server. Two purchases of one buyer
 * both write the buyer's wallet: run side by side on PostgreSQL, one of them
 * fails at COMMIT and runs again, its messages and a ROLLBACK spent for
 * nothing, while waiting for the other costs nothing. Buyers do not wait for
 * each other; across processes the database still orders them (SERIALIZABLE).
 */

const perServer = new WeakMap<ServerDeps, Map<string, Promise<void>>>();

function turnsOf(deps: ServerDeps): Map<string, Promise<void>> {
  let turns = perServer.get(deps);
  if (turns === undefined) perServer.set(deps, (turns = new Map()));
  return turns;
}

/** Ends the buyer's entry once `tail` settles, unless a later task queued behind it. */
function endTurn(turns: Map<string, Promise<void>>, buyerId: string, tail: Promise<void>): void {
  if (turns.get(buyerId) === tail) turns.delete(buyerId);
}

/** Runs `task` once the tasks started before it for `buyerId` on this server have settled. */
export function inBuyerTurn<T>(deps: ServerDeps, buyerId: string, task: () => Promise<T>): Promise<T> {
  const turns = turnsOf(deps);
  const before = turns.get(buyerId);
  const result = before === undefined ? task() : before.then(task);
  // One reaction for both outcomes; the closures are anonymous arguments, so that a build keeping
  // function names (tsx, esbuild's keepNames) does not name each one with a defineProperty per call.
  const tail: Promise<void> = result.then(() => endTurn(turns, buyerId, tail), () => endTurn(turns, buyerId, tail));
  turns.set(buyerId, tail);
  return result;
}

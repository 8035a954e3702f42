import type { ServerDeps } from "../../server-deps.js";

/*
 * One purchase at a time per buyer in a server. Two purchases of one buyer
 * both write the buyer's wallet: run side by side on PostgreSQL, one of them
 * fails at COMMIT and runs again, its messages and a ROLLBACK spent for
 * nothing, while waiting for the other costs nothing. Buyers do not wait for
 * each other; across processes the database still orders them (SERIALIZABLE).
 */

const perServer = new WeakMap<ServerDeps, Map<string, Promise<void>>>();

/** Runs `task` once the tasks started before it for `buyerId` on this server have settled. */
export function inBuyerTurn<T>(deps: ServerDeps, buyerId: string, task: () => Promise<T>): Promise<T> {
  let turns = perServer.get(deps);
  if (turns === undefined) perServer.set(deps, (turns = new Map()));
  const before = turns.get(buyerId);
  const result = before === undefined ? task() : before.then(task);
  const tail = result.then(() => undefined, () => undefined);
  turns.set(buyerId, tail);
  void tail.then(() => {
    if (turns.get(buyerId) === tail) turns.delete(buyerId);
  });
  return result;
}

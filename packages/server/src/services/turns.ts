import type { ServerDeps } from "../server-deps.js";

/*
 * One call at a time per key in a server, for calls that all write one row:
 * a buyer's purchases (their wallet), the writes of one datastore entry, the
 * chat sends into one conversation (its row). Run side by side on
 * PostgreSQL, all but one would fail at COMMIT and run again, their messages
 * and a ROLLBACK spent for nothing, while waiting for the one before costs
 * nothing. Calls of other keys do not wait; across processes the database
 * still orders them (SERIALIZABLE). Callers prefix their keys with what they
 * are ("buyer:", "entry:", "conversation:"), so kinds never meet.
 */

const perServer = new WeakMap<ServerDeps, Map<string, Promise<void>>>();

function turnsOf(deps: ServerDeps): Map<string, Promise<void>> {
  let turns = perServer.get(deps);
  if (turns === undefined) perServer.set(deps, (turns = new Map()));
  return turns;
}

/** Ends the key's entry once `tail` settles, unless a later task queued behind it. */
function endTurn(turns: Map<string, Promise<void>>, key: string, tail: Promise<void>): void {
  if (turns.get(key) === tail) turns.delete(key);
}

/** Runs `task` once the tasks started before it for `key` on this server have settled. */
export function inTurn<T>(deps: ServerDeps, key: string, task: () => Promise<T>): Promise<T> {
  const turns = turnsOf(deps);
  const before = turns.get(key);
  const result = before === undefined ? task() : before.then(task);
  // One reaction for both outcomes; the closures are anonymous arguments, so that a build keeping
  // function names (tsx, esbuild's keepNames) does not name each one with a defineProperty per call.
  const tail: Promise<void> = result.then(() => endTurn(turns, key, tail), () => endTurn(turns, key, tail));
  turns.set(key, tail);
  return result;
}

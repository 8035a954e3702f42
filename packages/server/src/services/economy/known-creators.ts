import type { ServerDeps } from "../../server-deps.js";

/*
 * Who created an item or an experience, as this server last read it: a row's
 * creator never changes, so BuyItem can read the creator's rows (wallet,
 * daily figures, name) in the same message as the item itself instead of
 * in one more after it. Only a guess: BuyItem checks it against the item
 * it reads in the same transaction and reads the right rows when it was
 * wrong or missing. Per server (servers in one process do not share it),
 * bounded: past the bound the entry remembered first is forgotten.
 */

/** Ids remembered per server. */
export const KNOWN_CREATORS_MAX = 10_000;

const perServer = new WeakMap<ServerDeps, Map<string, string>>();

/** The server's map of item and experience ids to their creators' ids. */
export function knownCreators(deps: ServerDeps): Map<string, string> {
  let known = perServer.get(deps);
  if (known === undefined) perServer.set(deps, (known = new Map()));
  return known;
}

/** Remembers that `creatorId` created the row `id`, forgetting the oldest entry past the bound. */
export function remember(known: Map<string, string>, id: string, creatorId: string): void {
  if (known.get(id) === creatorId) return;
  known.delete(id);
  known.set(id, creatorId);
  if (known.size > KNOWN_CREATORS_MAX) known.delete(known.keys().next().value!);
}

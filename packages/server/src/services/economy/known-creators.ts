import type { ItemKind } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";

/*
 * What a server remembers of the purchases it made, to read in BuyItem's
 * first message rows it would otherwise ask for in a second one:
 *
 * - who created an item or an experience (a row's creator never changes):
 *   the creators' wallets, daily-figure rows and the creator's name are read
 *   with the item;
 * - an item's kind (it never changes): a developer product, bought again
 *   and again, is never owned, so its buyer's ownership row is not read;
 * - an item's experience (it never changes): its row, whose visibility
 *   decides whether the item exists for the buyer, is read with the item;
 * - when a wallet's next hold falls due: past that time, the held rows that
 *   settling the wallet reads are read with it too.
 *
 * Only guesses: BuyItem checks them against the rows it reads in the same
 * transaction and reads what it needs when a guess was wrong or missing.
 * Per server (servers in one process do not share them), bounded: past the
 * bound the entry remembered first is forgotten.
 */

/** Entries remembered per map and server. */
export const KNOWN_MAX = 10_000;

export interface Known {
  /** Item and experience ids to their creators' ids. */
  creators: Map<string, string>;
  /** Item ids to their kinds. */
  kinds: Map<string, ItemKind>;
  /** Item ids to their experiences' ids ("" for an item of no experience). */
  experiences: Map<string, string>;
  /** User ids to the `nextReleaseAt` of their wallets, as this server last wrote them (none: nothing held). */
  releases: Map<string, number>;
}

const perServer = new WeakMap<ServerDeps, Known>();

/** What the server remembers. */
export function knownOf(deps: ServerDeps): Known {
  let known = perServer.get(deps);
  if (known === undefined) perServer.set(deps, (known = { creators: new Map(), kinds: new Map(), experiences: new Map(), releases: new Map() }));
  return known;
}

/** Remembers `value` for `key` (null: forgets it), forgetting the entry remembered first past the bound. */
export function remember<V>(map: Map<string, V>, key: string, value: V | null): void {
  if (value === null) {
    map.delete(key);
    return;
  }
  if (map.get(key) === value) return;
  map.delete(key);
  map.set(key, value);
  if (map.size > KNOWN_MAX) map.delete(map.keys().next().value!);
}

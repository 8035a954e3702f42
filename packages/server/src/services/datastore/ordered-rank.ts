import { tables, type Tx } from "@playfield/core";

/*
 * A key's rank in an ordered store (1 = highest value; equal values by key
 * ascending, as ListOrdered lists them): the entries above it, counted on
 * the `top` index, which is counted, so it costs the same at any board size.
 */

/** The rank of `key` in the ordered store, or null when the store has no such key. Inside a transaction. */
export async function orderedRank(tx: Tx, experienceId: string, store: string, key: string): Promise<number | null> {
  const row = await tx.get(tables.orderedEntries, tables.orderedEntryId(experienceId, store, key));
  if (!row) return null;
  const sortValue = -row.value || 0;
  const [higher, tiedBefore] = await Promise.all([
    tx.count(tables.orderedEntries, "top", { equals: [experienceId, store], range: { lt: sortValue } }),
    tx.count(tables.orderedEntries, "top", { equals: [experienceId, store, sortValue], range: { lt: key } }),
  ]);
  return higher + tiedBefore + 1;
}

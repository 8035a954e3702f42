import { tables, type Tx } from "@playfield/core";

/*
 * Which avatar items a user owns, from the EconomyService's ownership
 * table (avatar items are owned once per user: DESIGN.md "Ownership").
 */

/** The kinds of the given items the user owns, by item id; items not owned are absent. */
export async function ownedItemKinds(tx: Tx, userId: string, itemIds: readonly string[]): Promise<Map<string, string>> {
  const owned = new Map<string, string>();
  for (const itemId of itemIds) {
    const row = await tx.get(tables.ownership, `${userId}:${itemId}`);
    if (row) owned.set(itemId, row.kind);
  }
  return owned;
}

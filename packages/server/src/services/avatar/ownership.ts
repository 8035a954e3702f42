import { tables, type Tx } from "@playfield/core";

/*
 * Which avatar items a user owns, from the EconomyService's ownership
 * table (avatar items are owned once per user: DESIGN.md "Ownership").
 */

/** The kinds of the given items the user owns, by item id; items not owned are absent. One read for all items. */
export async function ownedItemKinds(tx: Tx, userId: string, itemIds: readonly string[]): Promise<Map<string, string>> {
  const rows = await tx.getMany(tables.ownership, itemIds.map((itemId) => `${userId}:${itemId}`));
  const owned = new Map<string, string>();
  itemIds.forEach((itemId, i) => {
    const row = rows[i];
    if (row) owned.set(itemId, row.kind);
  });
  return owned;
}

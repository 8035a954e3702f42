import { shardOf, tables, type ItemRow, type ItemSalesRow, type Tx } from "@playfield/core";

const { ITEM_SALES_SHARDS, itemSalesId, itemSalesIds } = tables;

/*
 * Items' sales counts, kept out of the item rows (core's `item_sales`): a
 * sale bumps the shard of its buyer, readers add up the item row's own count
 * and its shards. Concurrent buyers of one item then write the item row
 * never, and each other's shard only when their buyers share one.
 */

/** A shard of an item's count: its row's id and its number. */
export interface SalesShard {
  id: string;
  shard: number;
}

/** The shard of `itemId`'s count that a sale to `buyerId` bumps: the shard of the buyer's creator daily row too, so the two conflict together. */
export function saleShard(itemId: string, buyerId: string): SalesShard {
  const shard = shardOf(buyerId, ITEM_SALES_SHARDS);
  return { id: itemSalesId(itemId, shard), shard };
}

/** The sales shard `at` of `itemId` as a sale leaves it, from the row as read (undefined: none yet). */
export function bumpedShard(itemId: string, at: SalesShard, read: ItemSalesRow | undefined): ItemSalesRow {
  return { id: at.id, itemId, shard: at.shard, sales: (read?.sales ?? 0) + 1 };
}

/**
 * An item's sales: its row's own count plus its shards (any rows of `shards` that are not `itemId`'s are left out).
 * `own`: one shard as the caller holds it, counted instead of what `shards` hold of it.
 */
export function salesSum(item: ItemRow, shards: readonly (ItemSalesRow | undefined)[], own?: { id: string; row: ItemSalesRow | undefined }): number {
  let sales = item.sales + (own?.row?.sales ?? 0);
  for (const row of shards) if (row !== undefined && row.itemId === item.id && row.id !== own?.id) sales += row.sales;
  return sales;
}

/** The items' sales, in their order: one read of every shard of each. */
export async function salesOf(tx: Tx, items: readonly ItemRow[]): Promise<number[]> {
  if (items.length === 0) return [];
  const ids: string[] = [];
  for (const item of items) ids.push(...itemSalesIds(item.id));
  const rows = await tx.getMany(tables.itemSales, ids);
  return items.map((item, i) => salesSum(item, rows.slice(i * ITEM_SALES_SHARDS, (i + 1) * ITEM_SALES_SHARDS)));
}

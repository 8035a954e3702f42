import { shardOf, tables, type ItemRow, type ItemSalesRow, type Tx } from "@playfield/core";

const { ITEM_SALES_SHARDS, itemSalesId, itemSalesIds } = tables;

/*
 * Items' sales counts, kept out of the item rows (core's `item_sales`): a
 * sale bumps the shard of its buyer, readers add up the item row's own count
 * and its shards. Concurrent buyers of one item then write the item row
 * never, and each other's shard only when their buyers share one.
 */

/** The id of the shard of `itemId`'s count that a sale to `buyerId` bumps: the shard of the buyer's creator daily row too, so the two conflict together. */
export function saleShardId(itemId: string, buyerId: string): string {
  return itemSalesId(itemId, shardOf(buyerId, ITEM_SALES_SHARDS));
}

/** The sales shard `shardId` of `itemId` as a sale leaves it, from the row as read (undefined: none yet). */
export function bumpedShard(itemId: string, shardId: string, read: ItemSalesRow | undefined): ItemSalesRow {
  return read
    ? { id: read.id, itemId: read.itemId, shard: read.shard, sales: read.sales + 1 }
    : { id: shardId, itemId, shard: shardOfId(shardId), sales: 1 };
}

const shardOfId = (id: string) => Number(id.slice(id.lastIndexOf(":") + 1));

/** An item's sales: its row's own count plus its shards (any rows of `shards` that are not `itemId`'s are left out). */
function salesSum(item: ItemRow, shards: readonly (ItemSalesRow | undefined)[]): number {
  let sales = item.sales;
  for (const row of shards) if (row !== undefined && row.itemId === item.id) sales += row.sales;
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

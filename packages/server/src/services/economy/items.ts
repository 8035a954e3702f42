import {
  fail, tables,
  type EconomyService, type ExperienceRow, type ItemKind, type ItemRow, type MethodOutput, type Tx, type UserRow,
} from "@playfield/core";
import { visibleTo } from "../catalog/access.js";
import { salesOf } from "./item-sales.js";

/* Items as the API shows them, and the ownership rules (DESIGN.md "Ownership"). */

type Item = MethodOutput<typeof EconomyService.methods.getItem>;

/** Kinds bound to one of the creator's experiences. */
export const EXPERIENCE_KINDS: readonly ItemKind[] = ["game_pass", "developer_product"];
/** Kinds that pay the selling experience's share. */
export const AVATAR_KINDS: readonly ItemKind[] = ["avatar_hat", "avatar_shirt", "avatar_emote"];

/** Whether a kind is owned once (avatar items, game passes); developer products are bought again and again. */
export const ownedOnce = (kind: ItemKind) => kind !== "developer_product";

export const ownershipId = (userId: string, itemId: string) => `${userId}:${itemId}`;

/** Renders items for a viewer (null: anonymous): creator name, sales and whether the viewer owns each. Three reads, however many items. */
export async function itemViews(tx: Tx, rows: readonly ItemRow[], viewerId: string | null): Promise<Item[]> {
  const creatorIds = [...new Set(rows.map((row) => row.creatorId))];
  const ownable = viewerId === null ? [] : rows.filter((row) => ownedOnce(row.kind));
  const [creatorRows, ownershipRows, sales] = await Promise.all([
    tx.getMany(tables.users, creatorIds),
    tx.getMany(tables.ownership, ownable.map((row) => ownershipId(viewerId!, row.id))),
    salesOf(tx, rows),
  ]);
  const creators = new Map<string, UserRow | undefined>(creatorIds.map((id, i) => [id, creatorRows[i]]));
  const owned = new Set(ownable.filter((_, i) => ownershipRows[i] !== undefined).map((row) => row.id));
  return rows.map((row, i) => itemOf(row, creators.get(row.creatorId), owned.has(row.id), sales[i]!));
}

/** An item as the API shows it, from its row, its creator's row (if any), whether the viewer owns it and its sales (`item-sales.ts`). */
export function itemOf(row: ItemRow, creator: UserRow | undefined, owned: boolean, sales: number): Item {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    price: row.price,
    creatorId: row.creatorId,
    creatorName: creator && creator.deletedAt === null ? creator.username : "",
    experienceId: row.experienceId,
    thumbnailUrl: row.thumbnailUrl,
    owned,
    sales,
  };
}

/** The items of ownership rows, in their order, leaving out items that no longer exist: one read. */
export async function ownedItems(tx: Tx, owned: readonly { itemId: string }[]): Promise<ItemRow[]> {
  const items = await tx.getMany(tables.items, owned.map((o) => o.itemId));
  return items.filter((item): item is ItemRow => item !== undefined);
}

export async function itemView(tx: Tx, row: ItemRow, viewerId: string | null): Promise<Item> {
  return (await itemViews(tx, [row], viewerId))[0]!;
}

/** An item by id, or `not_found`. */
async function requireItem(tx: Tx, itemId: string): Promise<ItemRow> {
  const item = await tx.get(tables.items, itemId);
  if (!item) throw fail.notFound("itemId: no such item");
  return item;
}

/**
 * Which of these items exist for the viewer (null: anonymous), in their order: an item of an experience exists only
 * for those who may see the experience (catalog/access.ts), as the experience itself does. Two reads for all.
 */
export async function itemsSeen(tx: Tx, rows: readonly ItemRow[], viewerId: string | null): Promise<boolean[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.experienceId ? [row.experienceId] : [])))];
  if (ids.length === 0) return rows.map(() => true);
  const found = (await tx.getMany(tables.experiences, ids)).filter((row): row is ExperienceRow => row !== undefined);
  const seen = await visibleTo(tx, found, viewerId);
  const visible = new Set(found.filter((_, i) => seen[i]).map((row) => row.id));
  return rows.map((row) => !row.experienceId || visible.has(row.experienceId));
}

/**
 * An item by id if it exists for the viewer: they may see its experience, or they own it (bought while they could
 * see it: owners see what they own). `not_found`, as for an unknown id, otherwise.
 */
export async function seenItem(tx: Tx, itemId: string, viewerId: string | null): Promise<ItemRow> {
  const item = await requireItem(tx, itemId);
  if ((await itemsSeen(tx, [item], viewerId))[0]) return item;
  if (viewerId !== null && (await tx.get(tables.ownership, ownershipId(viewerId, itemId)))) return item;
  throw fail.notFound("itemId: no such item");
}

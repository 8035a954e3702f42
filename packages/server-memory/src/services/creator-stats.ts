import { cursorOf, dayKey, tables, type CreatorDailyRow, type ExperienceRow, type Tx, type VisitTallyRow } from "@playfield/core";

/*
 * Per-creator daily aggregates (the `creatorDaily` table), so the overview
 * reads a few rows however many plays were recorded. Sales are added as they
 * happen (in BuyItem's transaction). Visits are counted lazily: a creator's
 * tally remembers, per experience, the experience's `visits` counter and the
 * last play counted; an overview counts only the plays recorded since, and
 * skips an experience whose counter did not move.
 */

const dailyId = (creatorId: string, day: string) => `${creatorId}:${day}`;

async function bump(tx: Tx, creatorId: string, day: string, change: Partial<Pick<CreatorDailyRow, "visits" | "sales" | "revenue">>): Promise<void> {
  const id = dailyId(creatorId, day);
  const row = (await tx.get(tables.creatorDaily, id)) ?? { id, creatorId, day, visits: 0, sales: 0, revenue: 0 };
  await tx.put(tables.creatorDaily, {
    ...row,
    visits: row.visits + (change.visits ?? 0),
    sales: row.sales + (change.sales ?? 0),
    revenue: row.revenue + (change.revenue ?? 0),
  });
}

/** Records a sale in the creators' daily figures: one sale and its share for the item's creator, the selling-experience share for that experience's creator. */
export async function recordSaleStats(
  tx: Tx, at: number, sale: { creatorId: string; creatorShare: number; sellingCreatorId: string | null; experienceShare: number },
): Promise<void> {
  const day = dayKey(at);
  await bump(tx, sale.creatorId, day, { sales: 1, revenue: sale.creatorShare });
  if (sale.sellingCreatorId && sale.experienceShare > 0) await bump(tx, sale.sellingCreatorId, day, { revenue: sale.experienceShare });
}

/**
 * Counts into `creatorDaily` the plays of a creator's experiences recorded
 * since the last count. Inside a transaction (it writes the tally and the
 * daily rows).
 */
export async function countNewVisits(tx: Tx, creatorId: string, experiences: readonly ExperienceRow[]): Promise<void> {
  const tally: VisitTallyRow = (await tx.get(tables.visitTallies, creatorId)) ?? { creatorId, experiences: {} };
  let changed: VisitTallyRow["experiences"] | null = null;
  const perDay = new Map<string, number>();
  for (const experience of experiences) {
    const mark = tally.experiences[experience.id];
    if (mark && mark.seen === experience.visits) continue;
    const after = mark ? { key: [experience.id, mark.joinedAt], id: mark.playId } : undefined;
    const fresh = await tx.query(tables.plays, "byExperience", { equals: [experience.id], after });
    if (fresh.length === 0 && mark) continue;
    for (const play of fresh) perDay.set(dayKey(play.joinedAt), (perDay.get(dayKey(play.joinedAt)) ?? 0) + 1);
    const last = fresh.at(-1);
    changed ??= { ...tally.experiences };
    changed[experience.id] = last
      ? { seen: experience.visits, joinedAt: last.joinedAt, playId: cursorOf(tables.plays, "byExperience", last).id }
      : { seen: experience.visits, joinedAt: -1, playId: "" };
  }
  if (!changed) return;
  await tx.put(tables.visitTallies, { creatorId, experiences: changed });
  for (const [day, visits] of perDay) await bump(tx, creatorId, day, { visits });
}

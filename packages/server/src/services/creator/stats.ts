import {
  dayKey, dayStart, shardOf, tables, withChanges,
  type CreatorDailyRow, type DayWindow, type ExperienceDailyRow, type PlayRow, type PlaySpan, type Tx,
} from "@playfield/core";

/*
 * Creator analytics aggregates, kept eagerly: every writer of a play or a
 * sale calls one of the `record*` functions below in the transaction that
 * writes it, so GetOverview and GetExperienceAnalytics read one row per day
 * (and per player-day for retention), never the plays.
 *
 * - `creatorDaily`: a creator's visits, sales and revenue per day.
 * - `experienceDaily`: an experience's visits, unique players, ended plays
 *   and their summed length, per day the plays started.
 * - `playerDays`: who played an experience on which day (unique players and
 *   day-1 retention stay exact).
 *
 * The daily rows are sharded: each write bumps the row of its day and of the
 * writer's shard (the buyer's or the player's), and readers sum a day's rows.
 * A popular creator's sales and an experience's joins then run concurrently
 * on PostgreSQL instead of all writing one row (docs/storage.md, "Hot rows");
 * the figures stay exact, as they are written in the same transaction.
 */

/**
 * Rows per creator or experience and day. As many as an item's sales shards (`ITEM_SALES_SHARDS`): a sale bumps the
 * same shard of both, so two buyers of one item conflict on both or on neither (16 rather than 8 halved the runs again
 * of 50 buyers of one item on PostgreSQL).
 */
const DAILY_SHARDS = 16;

/** The id of a daily row: the owner, the day, and the shard of the writer `by`. */
const dailyId = (ownerId: string, day: string, by: string) => `${ownerId}:${day}:${shardOf(by, DAILY_SHARDS)}`;

type CreatorFigures = Pick<CreatorDailyRow, "visits" | "sales" | "revenue">;

/** Rows read already in the transaction (`rows[i]` is `ids[i]`'s, undefined: read and absent), not written since. */
export interface ReadAhead<Row> {
  ids: readonly string[];
  rows: readonly (Row | undefined)[];
}

/** Bumps a creator's daily row; with the row in `read`, at once (no read, no turn of its own). */
function bumpCreator(tx: Tx, creatorId: string, day: string, by: string, change: Partial<CreatorFigures>, read?: ReadAhead<CreatorDailyRow>): Promise<void> {
  const id = dailyId(creatorId, day, by);
  const at = read === undefined ? -1 : read.ids.indexOf(id);
  if (at !== -1) return putBumped(tx, id, creatorId, day, read!.rows[at], change);
  return tx.get(tables.creatorDaily, id).then((row) => putBumped(tx, id, creatorId, day, row, change));
}

function putBumped(tx: Tx, id: string, creatorId: string, day: string, found: CreatorDailyRow | undefined, change: Partial<CreatorFigures>): Promise<void> {
  const row = found ?? { id, creatorId, day, visits: 0, sales: 0, revenue: 0 };
  return tx.put(tables.creatorDaily, withChanges(row, {
    visits: row.visits + (change.visits ?? 0),
    sales: row.sales + (change.sales ?? 0),
    revenue: row.revenue + (change.revenue ?? 0),
  }));
}

async function bumpExperience(
  tx: Tx, experienceId: string, day: string, by: string, change: Partial<Pick<ExperienceDailyRow, "visits" | "uniquePlayers" | "endedPlays" | "playMs">>,
): Promise<void> {
  const id = dailyId(experienceId, day, by);
  const row = (await tx.get(tables.experienceDaily, id)) ?? { id, experienceId, day, visits: 0, uniquePlayers: 0, endedPlays: 0, playMs: 0 };
  await tx.put(tables.experienceDaily, withChanges(row, {
    visits: row.visits + (change.visits ?? 0),
    uniquePlayers: row.uniquePlayers + (change.uniquePlayers ?? 0),
    endedPlays: row.endedPlays + (change.endedPlays ?? 0),
    playMs: row.playMs + (change.playMs ?? 0),
  }));
}

/**
 * Records a play just written (a join): a visit for the experience and its
 * creator on the play's day, and a unique player when it is the player's
 * first play of the experience that day. In the play's transaction. A play
 * written already ended also needs `recordPlayEnded`.
 */
export async function recordPlayStarted(tx: Tx, play: PlayRow, creatorId: string): Promise<void> {
  const day = dayKey(play.joinedAt);
  const start = dayStart(play.joinedAt);
  const playerDayId = `${play.experienceId}:${day}:${play.userId}`;
  const first = (await tx.get(tables.playerDays, playerDayId)) === undefined;
  if (first) await tx.put(tables.playerDays, { id: playerDayId, experienceId: play.experienceId, userId: play.userId, dayStart: start });
  await bumpExperience(tx, play.experienceId, day, play.userId, { visits: 1, uniquePlayers: first ? 1 : 0 });
  await bumpCreator(tx, creatorId, day, play.userId, { visits: 1 });
}

/** Records the end of a play at `leftAt` (counted on the day the play started, for the mean session length). In the play's transaction; call it once per play. */
export async function recordPlayEnded(tx: Tx, play: PlayRow, leftAt: number): Promise<void> {
  if (leftAt < play.joinedAt) return;
  await bumpExperience(tx, play.experienceId, dayKey(play.joinedAt), play.userId, { endedPlays: 1, playMs: leftAt - play.joinedAt });
}

/** The id of the `creator_daily` row a sale at `at` to `buyerId` bumps for `creatorId`: for a caller that reads it ahead, with its other reads. */
export const saleDailyId = (creatorId: string, at: number, buyerId: string) => dailyId(creatorId, dayKey(at), buyerId);

/**
 * Records a sale in the creators' daily figures: one sale and its share for the item's creator, the selling-experience share for that experience's creator.
 * The rows not in `read` (rows the caller read ahead: `saleDailyId`) are read at once (the two creators differ) and with any read the caller starts in
 * the same turn: one round trip on a database, none when both were read ahead.
 */
export function recordSaleStats(
  tx: Tx, at: number, sale: { buyerId: string; creatorId: string; creatorShare: number; sellingCreatorId: string | null; experienceShare: number },
  read?: ReadAhead<CreatorDailyRow>,
): Promise<void> {
  const day = dayKey(at);
  const ofCreator = bumpCreator(tx, sale.creatorId, day, sale.buyerId, { sales: 1, revenue: sale.creatorShare }, read);
  if (!sale.sellingCreatorId || sale.experienceShare <= 0) return ofCreator;
  const ofSeller = bumpCreator(tx, sale.sellingCreatorId, day, sale.buyerId, { revenue: sale.experienceShare }, read);
  return Promise.all([ofCreator, ofSeller]).then(() => undefined);
}

/** A creator's figures per day from `fromDay` on (the sum of each day's rows); days without any are absent. */
export async function creatorDailyFigures(tx: Tx, creatorId: string, fromDay: string): Promise<Map<string, CreatorFigures>> {
  const rows = await tx.query(tables.creatorDaily, "byCreator", { equals: [creatorId], range: { gte: fromDay } });
  const days = new Map<string, CreatorFigures>();
  for (const row of rows) {
    const day = days.get(row.day);
    if (day) {
      day.visits += row.visits;
      day.sales += row.sales;
      day.revenue += row.revenue;
    } else {
      days.set(row.day, { visits: row.visits, sales: row.sales, revenue: row.revenue });
    }
  }
  return days;
}

/** An experience's play figures over a window, from the aggregates: daily visits and unique players, the mean session length and the players' days (for day-1 retention). */
export async function experiencePlayFigures(tx: Tx, experienceId: string, window: DayWindow): Promise<{
  visits: Map<string, number>; uniquePlayers: Map<string, number>; avgSessionSeconds: number; playerDays: PlaySpan[];
}> {
  const rows = await tx.query(tables.experienceDaily, "byExperience", { equals: [experienceId], range: { gte: window.days[0]! } });
  const visits = new Map<string, number>(), uniquePlayers = new Map<string, number>();
  let ended = 0, totalMs = 0;
  for (const row of rows) {
    visits.set(row.day, (visits.get(row.day) ?? 0) + row.visits);
    uniquePlayers.set(row.day, (uniquePlayers.get(row.day) ?? 0) + row.uniquePlayers);
    ended += row.endedPlays;
    totalMs += row.playMs;
  }
  const days = await tx.query(tables.playerDays, "byExperience", { equals: [experienceId], range: { gte: window.start } });
  return {
    visits,
    uniquePlayers,
    // The same rounding as `averageSessionSeconds` over the plays.
    avgSessionSeconds: ended === 0 ? 0 : Math.round(totalMs / ended / 1000),
    playerDays: days.map((d) => ({ userId: d.userId, joinedAt: d.dayStart, leftAt: null })),
  };
}

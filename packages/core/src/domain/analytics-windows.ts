/*
 * Daily analytics windows: UTC days, day keys, series over a window, session
 * lengths and day-1 retention, from plain records (no storage here).
 */

import { DAY_MS, isoTime } from "./iso-time.js";

export { DAY_MS };

// The last day asked for and its key: a day's sales and plays ask for the same key again and again.
let lastDay = NaN;
let lastKey = "";

/** The UTC day of a time, as `YYYY-MM-DD`. */
export function dayKey(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day === lastDay) return lastKey;
  const key = isoTime(ms).slice(0, 10);
  lastDay = day;
  lastKey = key;
  return key;
}

/** The start (00:00 UTC) of the day of `ms`. */
export function dayStart(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** A window of whole UTC days ending with today: its first instant and its day keys, oldest first. */
export interface DayWindow {
  start: number;
  days: string[];
}

/** The last `days` UTC days up to and including the day of `now`. */
export function dayWindow(now: number, days: number): DayWindow {
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a positive integer, got ${days}`);
  const start = dayStart(now) - (days - 1) * DAY_MS;
  return { start, days: Array.from({ length: days }, (_, i) => dayKey(start + i * DAY_MS)) };
}

/** A series with one point per day of the window (0 where `values` has none). */
export function dailySeries(window: DayWindow, values: ReadonlyMap<string, number>): { date: string; value: number }[] {
  return window.days.map((date) => ({ date, value: values.get(date) ?? 0 }));
}

/** One play as analytics see it. */
export interface PlaySpan {
  userId: string;
  joinedAt: number;
  /** Null while playing. */
  leftAt: number | null;
}

/** Visits (plays started) and unique players per day. */
export function visitsByDay(plays: readonly PlaySpan[]): { visits: Map<string, number>; uniquePlayers: Map<string, number> } {
  const visits = new Map<string, number>();
  const players = new Map<string, Set<string>>();
  for (const play of plays) {
    const day = dayKey(play.joinedAt);
    visits.set(day, (visits.get(day) ?? 0) + 1);
    let set = players.get(day);
    if (!set) players.set(day, (set = new Set()));
    set.add(play.userId);
  }
  return { visits, uniquePlayers: new Map([...players].map(([day, set]) => [day, set.size])) };
}

/** The mean length in whole seconds of the plays that ended (0 when none did). */
export function averageSessionSeconds(plays: readonly PlaySpan[]): number {
  let total = 0, count = 0;
  for (const play of plays) {
    if (play.leftAt === null || play.leftAt < play.joinedAt) continue;
    total += play.leftAt - play.joinedAt;
    count += 1;
  }
  return count === 0 ? 0 : Math.round(total / count / 1000);
}

/**
 * Day-1 retention in percent (0-100): of the players whose first play in the
 * window was on a day whose next day is also in the window (and over), the
 * share who played again on that next day. 0 when no player qualifies.
 */
export function day1Retention(plays: readonly PlaySpan[], window: DayWindow): number {
  const firstDay = new Map<string, number>();
  const daysPlayed = new Map<string, Set<number>>();
  for (const play of plays) {
    if (play.joinedAt < window.start) continue;
    const day = Math.floor(play.joinedAt / DAY_MS);
    const first = firstDay.get(play.userId);
    if (first === undefined || day < first) firstDay.set(play.userId, day);
    let set = daysPlayed.get(play.userId);
    if (!set) daysPlayed.set(play.userId, (set = new Set()));
    set.add(day);
  }
  // The last day of the window is today, not over: players first seen yesterday or today are not judged yet.
  const lastDay = Math.floor(window.start / DAY_MS) + window.days.length - 1;
  let cohort = 0, returned = 0;
  for (const [userId, first] of firstDay) {
    if (first + 1 >= lastDay) continue;
    cohort += 1;
    if (daysPlayed.get(userId)!.has(first + 1)) returned += 1;
  }
  return cohort === 0 ? 0 : (returned / cohort) * 100;
}

/*
 * How a query on an index becomes a range of positions in an ordered index:
 * each bound is a predicate that holds for a prefix of the entries (those
 * before the bound), so the order-statistic tree counts it in O(log n).
 */
import { compareKeys, type Cursor, type IndexKey, type KeyRange, type Query } from "@playfield/core";

/** Where a stored row lives: the one object every index entry of the row points to. */
export interface RowSlot<Row = unknown> {
  /** The row as last put, in its version; an overwrite that keeps an entry's key changes only this. */
  version: { readonly row: Row };
}

/** One entry of an index: the row's key in it, its primary key and the row's slot. */
export interface IndexEntry<Row = unknown> {
  key: IndexKey;
  id: string;
  slot: RowSlot<Row>;
}

/** Orders entries by index key (`compareKeys`), ties by primary key. */
export function compareEntries(a: Cursor, b: Cursor): number {
  return compareKeys(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Compares two key elements with the rules of `compareKeys`. */
function compareElements(a: string | number, b: string | number): number {
  if (a === b) return 0;
  if (typeof a === typeof b) return a < b ? -1 : 1;
  return typeof a === "number" ? -1 : 1;
}

/** Compares the first `prefix.length` elements of `key` with `prefix` (a shorter key sorts first). */
function comparePrefix(key: IndexKey, prefix: IndexKey): number {
  for (let i = 0; i < prefix.length; i++) {
    if (i >= key.length) return -1;
    const c = compareElements(key[i]!, prefix[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/** A predicate that holds for the entries before a bound. */
export type Before = (entry: Cursor) => boolean;

/** Entries before the first one matching `equals` and `range`. */
export function beforeStart(equals: IndexKey, range: KeyRange | undefined): Before {
  const p = equals.length;
  const { gt, gte } = range ?? {};
  const bounded = hasBounds(range);
  return (entry) => {
    const c = comparePrefix(entry.key, equals);
    if (c !== 0) return c < 0;
    if (!bounded) return false;
    const v = entry.key[p];
    // A key with no element to bound sorts first and cannot match a range.
    if (v === undefined) return true;
    if (gt !== undefined && compareElements(v, gt) <= 0) return true;
    return gte !== undefined && compareElements(v, gte) < 0;
  };
}

/** Entries before the end of those matching `equals` and `range` (matches included). */
export function beforeEnd(equals: IndexKey, range: KeyRange | undefined): Before {
  const p = equals.length;
  const { lt, lte } = range ?? {};
  return (entry) => {
    const c = comparePrefix(entry.key, equals);
    if (c !== 0) return c < 0;
    const v = entry.key[p];
    if (v === undefined) return true;
    if (lt !== undefined && compareElements(v, lt) >= 0) return false;
    return lte === undefined || compareElements(v, lte) <= 0;
  };
}

/** Entries at or before `cursor` (`inclusive`), or strictly before it. */
export function beforeCursor(cursor: Cursor, inclusive: boolean): Before {
  return inclusive ? (entry) => compareEntries(entry, cursor) <= 0 : (entry) => compareEntries(entry, cursor) < 0;
}

function hasBounds(range: KeyRange | undefined): boolean {
  return range !== undefined && (range.gt !== undefined || range.gte !== undefined || range.lt !== undefined || range.lte !== undefined);
}

/** Positions `[start, end)` of the rows a query answers, before `order`, `offset` and `limit` apply. */
export function matchBounds(count: (before: Before) => number, query: Query): { start: number; end: number } {
  const equals = query.equals ?? [];
  const start = count(beforeStart(equals, query.range));
  const end = count(beforeEnd(equals, query.range));
  return { start, end: Math.max(start, end) };
}

/*
 * How a query on an index becomes a range of positions in an ordered index:
 * each bound is a predicate that holds for a prefix of the entries (those
 * before the bound), so the order-statistic tree counts it in O(log n).
 */
import { compareKeys, type Cursor, type IndexKey, type KeyRange, type Query } from "@playfield/core";

/** Orders two primary keys. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders an entry (its index key and primary key) against a cursor: by index key (`compareKeys`), ties by primary key. */
export function compareEntries(key: IndexKey, id: string, cursor: Cursor): number {
  return compareKeys(key, cursor.key) || compareIds(id, cursor.id);
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

/** An entry of an index: its primary key; its key in the index is read with a `KeyOf`. */
export interface Entry {
  readonly id: string;
}

/** An entry's key in one index. */
export type KeyOf<E extends Entry> = (entry: E) => IndexKey;

/**
 * A predicate that holds for the entries before a bound. It reads the entry
 * itself (the tree's item), so that counting calls it with no wrapper made per bound.
 */
export type Before<E extends Entry> = (entry: E) => boolean;

/** What counts the entries a bound holds for: an order-statistic tree. */
export interface Counter<E extends Entry> {
  countWhile(before: Before<E>): number;
}

/** Entries before the first one matching `equals` and `range`. */
export function beforeStart<E extends Entry>(keyOf: KeyOf<E>, equals: IndexKey, range: KeyRange | undefined): Before<E> {
  const p = equals.length;
  const gt = range?.gt, gte = range?.gte;
  const bounded = hasBounds(range);
  return (entry) => {
    const key = keyOf(entry);
    const c = comparePrefix(key, equals);
    if (c !== 0) return c < 0;
    if (!bounded) return false;
    const v = key[p];
    // A key with no element to bound sorts first and cannot match a range.
    if (v === undefined) return true;
    if (gt !== undefined && compareElements(v, gt) <= 0) return true;
    return gte !== undefined && compareElements(v, gte) < 0;
  };
}

/** Entries before the end of those matching `equals` and `range` (matches included). */
export function beforeEnd<E extends Entry>(keyOf: KeyOf<E>, equals: IndexKey, range: KeyRange | undefined): Before<E> {
  const p = equals.length;
  const lt = range?.lt, lte = range?.lte;
  return (entry) => {
    const key = keyOf(entry);
    const c = comparePrefix(key, equals);
    if (c !== 0) return c < 0;
    const v = key[p];
    if (v === undefined) return true;
    if (lt !== undefined && compareElements(v, lt) >= 0) return false;
    return lte === undefined || compareElements(v, lte) <= 0;
  };
}

/** Entries at or before `cursor` (`inclusive`), or strictly before it. */
export function beforeCursor<E extends Entry>(keyOf: KeyOf<E>, cursor: Cursor, inclusive: boolean): Before<E> {
  return inclusive
    ? (entry) => compareEntries(keyOf(entry), entry.id, cursor) <= 0
    : (entry) => compareEntries(keyOf(entry), entry.id, cursor) < 0;
}

function hasBounds(range: KeyRange | undefined): boolean {
  return range !== undefined && (range.gt !== undefined || range.gte !== undefined || range.lt !== undefined || range.lte !== undefined);
}

/** Positions `[start, end)` of the rows a query answers in the index `entries` (keys read with `keyOf`), before `order`, `offset` and `limit` apply. */
export function matchBounds<E extends Entry>(entries: Counter<E>, keyOf: KeyOf<E>, query: Query): { start: number; end: number } {
  const equals = query.equals ?? NO_KEY;
  const start = entries.countWhile(beforeStart(keyOf, equals, query.range));
  const end = entries.countWhile(beforeEnd(keyOf, equals, query.range));
  return { start, end: Math.max(start, end) };
}

const NO_KEY: IndexKey = [];

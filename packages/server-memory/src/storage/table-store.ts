/*
 * The rows of one table and its ordered indexes, kept in step. Writes are
 * applied at once; the transaction that made them keeps what each replaced,
 * so that it can put it back if it fails (see memory-storage.ts).
 */
import { UniqueViolation, compareKeys, type IndexDef, type IndexKey, type Query, type TableDef } from "@playfield/core";
import { beforeCursor, compareEntries, matchBounds, type IndexEntry } from "./index-range.js";
import { createOrderStatisticTree, type OrderStatisticTree } from "./order-statistic-tree.js";

/** The index name that queries a table by primary key (key `[id]`). */
import { PRIMARY_INDEX } from "@playfield/core";


/** A stored row with its entry in each declared index (null when left out of it). */
export interface StoredRow<Row = unknown> {
  row: Row;
  entries: (IndexEntry<Row> | null)[];
}

/** One table's rows and indexes. */
export interface TableStore<Row = unknown> {
  readonly def: TableDef<Row>;
  get(id: string): Row | undefined;
  /** The stored form of `row`; throws `UniqueViolation` (or on a bad key) without changing anything. */
  prepare(row: Row): { id: string; stored: StoredRow<Row> };
  /** Sets (or, with undefined, removes) the row `id`; answers what was there. */
  write(id: string, stored: StoredRow<Row> | undefined): StoredRow<Row> | undefined;
  query(index: string, query: Query): Row[];
  count(index: string, query: Pick<Query, "equals" | "range">): number;
  clear(): void;
}

type Tree<Row> = OrderStatisticTree<IndexEntry<Row>>;

/** Creates the empty store of the table `def`. */
export function createTableStore<Row>(def: TableDef<Row>): TableStore<Row> {
  if (Object.hasOwn(def.indexes, PRIMARY_INDEX)) {
    throw new Error(`table ${def.name}: the index name "${PRIMARY_INDEX}" is reserved for the primary key`);
  }
  const names = Object.keys(def.indexes);
  const defs: IndexDef<Row>[] = names.map((name) => def.indexes[name]!);
  const trees: Tree<Row>[] = names.map(() => createOrderStatisticTree<IndexEntry<Row>>(compareEntries));
  const positions = new Map(names.map((name, i) => [name, i]));
  const rows = new Map<string, StoredRow<Row>>();
  // Built on the first query by primary key, then kept up to date: most tables never need it.
  let primary: Tree<Row> | null = null;

  function treeOf(index: string): Tree<Row> {
    if (index === PRIMARY_INDEX) return primary ??= buildPrimary();
    const i = positions.get(index);
    if (i === undefined) throw new Error(`no index ${def.name}.${index}`);
    return trees[i]!;
  }

  function buildPrimary(): Tree<Row> {
    const tree = createOrderStatisticTree<IndexEntry<Row>>(compareEntries);
    for (const [id, stored] of rows) tree.insert({ key: [id], id, row: stored.row });
    return tree;
  }

  function checkUnique(i: number, key: IndexKey, id: string): void {
    const tree = trees[i]!;
    // Entries with this key sit together, ordered by id: one of the first two is another row's, if any.
    const start = tree.countWhile((e) => compareKeys(e.key, key) < 0);
    for (const entry of [tree.at(start), tree.at(start + 1)]) {
      if (entry && entry.id !== id && compareKeys(entry.key, key) === 0) {
        throw new UniqueViolation(def.name, names[i]!, key);
      }
    }
  }

  return {
    def,
    get: (id) => rows.get(id)?.row,
    prepare(row) {
      const id = def.primaryKey(row);
      if (typeof id !== "string") throw new TypeError(`table ${def.name}: the primary key must be a string`);
      const entries = defs.map((index, i) => {
        const key = index.key(row);
        if (key === null) return null;
        checkKey(def.name, names[i]!, key);
        if (index.unique) checkUnique(i, key, id);
        return { key, id, row };
      });
      return { id, stored: { row, entries } };
    },
    write(id, stored) {
      const previous = rows.get(id);
      if (previous) {
        previous.entries.forEach((entry, i) => entry && trees[i]!.delete(entry));
      }
      if (stored) {
        rows.set(id, stored);
        stored.entries.forEach((entry, i) => entry && trees[i]!.insert(entry));
        primary?.insert({ key: [id], id, row: stored.row });
      } else {
        rows.delete(id);
        primary?.delete({ key: [id], id, row: undefined as Row });
      }
      return previous;
    },
    query(index, query) {
      const tree = treeOf(index);
      const offset = checkCount("offset", query.offset) ?? 0;
      const limit = checkCount("limit", query.limit) ?? Infinity;
      let { start, end } = matchBounds(tree.countWhile, query);
      const desc = query.order === "desc";
      if (query.after) {
        // By value, not position: rows added or removed since the cursor was made shift nothing.
        if (desc) end = Math.min(end, tree.countWhile(beforeCursor(query.after, false)));
        else start = Math.max(start, tree.countWhile(beforeCursor(query.after, true)));
      }
      if (desc) {
        end -= offset;
        start = Math.max(start, end - limit);
      } else {
        start += offset;
        end = Math.min(end, start + limit);
      }
      if (start >= end) return [];
      const page = tree.slice(start, end);
      if (desc) page.reverse();
      return page.map((entry) => entry.row);
    },
    count(index, query) {
      const { start, end } = matchBounds(treeOf(index).countWhile, query);
      return end - start;
    },
    clear() {
      rows.clear();
      for (const tree of trees) tree.clear();
      primary = null;
    },
  };
}

function checkKey(table: string, index: string, key: IndexKey): void {
  for (const element of key) {
    if (typeof element === "string" || (typeof element === "number" && !Number.isNaN(element))) continue;
    throw new TypeError(`index ${table}.${index}: key elements must be strings or numbers, got ${String(element)}`);
  }
}

function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`query ${name} must be a whole number ≥ 0, got ${value}`);
  return value;
}

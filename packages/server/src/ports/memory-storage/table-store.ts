/*
 * The rows of one table and its ordered indexes, kept in step. Writes are
 * applied at once; the transaction that made them keeps what each replaced,
 * so that it can put it back if it fails (see memory-storage.ts). A put, a
 * delete and an undo are all one `write` of a row version, which moves only
 * the index entries whose key changed: every entry of a row points to the
 * row's slot, so an entry whose key stays shows the new row with no tree work.
 * A write swaps the slot's version object and answers the one it replaced
 * (what an undo writes back): a put allocates its version and index entries,
 * and nothing more.
 */
import { PRIMARY_INDEX, UniqueViolation, compareKeys, type IndexDef, type IndexKey, type Query, type TableDef } from "@playfield/core";
import { beforeCursor, compareEntries, matchBounds, type IndexEntry, type RowSlot } from "./index-range.js";
import { createOrderStatisticTree, type OrderStatisticTree } from "./order-statistic-tree.js";

/** A version of a row: its primary key, the row and its key in each declared index (null when left out of it). */
export interface RowVersion<Row = unknown> {
  readonly id: string;
  readonly row: Row;
  readonly keys: readonly (IndexKey | null)[];
}

/** One table's rows and indexes. */
export interface TableStore<Row = unknown> {
  readonly def: TableDef<Row>;
  get(id: string): Row | undefined;
  /** The version `row` would write; throws `UniqueViolation` (or on a bad key) without changing anything. */
  prepare(row: Row): RowVersion<Row>;
  /** Makes `version` the row `id` (undefined removes it); answers the version it replaced. */
  write(id: string, version: RowVersion<Row> | undefined): RowVersion<Row> | undefined;
  query(index: string, query: Query): Row[];
  count(index: string, query: Pick<Query, "equals" | "range">): number;
  clear(): void;
}

/** A stored row: its slot, which its index entries share. */
type Slot<Row> = RowSlot<Row> & { version: RowVersion<Row> };

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
  const rows = new Map<string, Slot<Row>>();
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
    for (const [id, slot] of rows) tree.insert({ key: [id], id, slot });
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

  function insert(id: string, version: RowVersion<Row>): void {
    const slot: Slot<Row> = { version };
    rows.set(id, slot);
    const { keys } = version;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key) trees[i]!.insert({ key, id, slot });
    }
    primary?.insert({ key: [id], id, slot });
  }

  function remove(id: string, slot: Slot<Row>): void {
    rows.delete(id);
    const { keys } = slot.version;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key) trees[i]!.delete({ key, id, slot });
    }
    primary?.delete({ key: [id], id, slot });
  }

  /** Moves the entries of `slot` whose key differs in `version`, then makes `version` the slot's. */
  function update(id: string, slot: Slot<Row>, version: RowVersion<Row>): void {
    const held = slot.version.keys;
    for (let i = 0; i < trees.length; i++) {
      const before = held[i] ?? null, after = version.keys[i] ?? null;
      if (sameKey(before, after)) continue;
      if (before) trees[i]!.delete({ key: before, id, slot });
      if (after) trees[i]!.insert({ key: after, id, slot });
    }
    slot.version = version;
  }

  return {
    def,
    get: (id) => rows.get(id)?.version.row,
    prepare(row) {
      const id = def.primaryKey(row);
      if (typeof id !== "string") throw new TypeError(`table ${def.name}: the primary key must be a string`);
      const held = rows.get(id)?.version.keys;
      const keys: (IndexKey | null)[] = [];
      for (let i = 0; i < defs.length; i++) {
        const index = defs[i]!;
        const key = index.key(row);
        if (key !== null) {
          checkKey(def.name, names[i]!, key);
          // A key the row holds already is its own: the index is unique, so no other row holds it.
          if (index.unique && !sameKey(held?.[i] ?? null, key)) checkUnique(i, key, id);
        }
        keys.push(key);
      }
      return { id, row, keys };
    },
    write(id, version) {
      const slot = rows.get(id);
      if (!slot) {
        if (version) insert(id, version);
        return undefined;
      }
      const previous = slot.version;
      if (version) update(id, slot, version);
      else remove(id, slot);
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
      return page.map((entry) => entry.slot.version.row);
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

/** Whether two index keys (null: left out of the index) name one entry position. */
function sameKey(a: IndexKey | null, b: IndexKey | null): boolean {
  return a !== null && b !== null && compareKeys(a, b) === 0;
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

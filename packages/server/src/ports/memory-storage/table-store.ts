/*
 * The rows of one table and its ordered indexes, kept in step. Writes are
 * applied at once; the transaction that made them keeps what each replaced,
 * so that it can put it back if it fails (see memory-storage.ts). A put, a
 * delete and an undo are all one `write` of a row version, which moves only
 * the index entries whose key changed.
 *
 * A stored row is one slot object (its id, row and index keys), and every
 * index tree holds the slot itself, ordered by the slot's key in that index:
 * an overwrite that keeps an index's key changes the slot with no tree work,
 * and a stored row costs its slot and keys, with no entry object per index
 * (history, ledger and order rows are kept for long: fewer objects are less
 * for the garbage collector to copy and mark).
 */
import { PRIMARY_INDEX, UniqueViolation, compareKeys, type IndexDef, type IndexKey, type Query, type TableDef } from "@playfield/core";
import { beforeCursor, compareIds, matchBounds } from "./index-range.js";
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
  /**
   * Makes `version` the row `id` (undefined removes it); answers whether a
   * row was there. With `log`, pushes what it replaced, to write back:
   * `id`, then the row and its keys (both undefined when there was none).
   */
  write(id: string, version: RowVersion<Row> | undefined, log?: unknown[]): boolean;
  query(index: string, query: Query): Row[];
  count(index: string, query: Pick<Query, "equals" | "range">): number;
  clear(): void;
}

/** A stored row: the object each index tree holds. The version a put prepared becomes the slot of a new row. */
interface Slot<Row> {
  readonly id: string;
  row: Row;
  keys: readonly (IndexKey | null)[];
}

type Tree<Row> = OrderStatisticTree<Slot<Row>>;

/** An index's tree and how to read a slot's key in it. */
interface Index<Row> {
  tree: Tree<Row>;
  keyOf: (slot: Slot<Row>) => IndexKey;
}

const primaryKeyOf = (slot: Slot<unknown>): IndexKey => [slot.id];
const compareById = (a: Slot<unknown>, b: Slot<unknown>): number => compareIds(a.id, b.id);
/** A slot's place as a separator: its id and keys as they are now (a write gives a slot a new keys array, never changes one). */
const separatorOf = <Row>(slot: Slot<Row>): Slot<Row> => ({ id: slot.id, row: undefined as Row, keys: slot.keys });

/** Creates the empty store of the table `def`. */
export function createTableStore<Row>(def: TableDef<Row>): TableStore<Row> {
  if (Object.hasOwn(def.indexes, PRIMARY_INDEX)) {
    throw new Error(`table ${def.name}: the index name "${PRIMARY_INDEX}" is reserved for the primary key`);
  }
  const names = Object.keys(def.indexes);
  const defs: IndexDef<Row>[] = names.map((name) => def.indexes[name]!);
  const indexes: Index<Row>[] = names.map((_, i) => ({
    tree: createOrderStatisticTree<Slot<Row>>((a, b) => compareKeys(a.keys[i]!, b.keys[i]!) || compareIds(a.id, b.id), { separator: separatorOf }),
    keyOf: (slot) => slot.keys[i]!,
  }));
  const trees = indexes.map((index) => index.tree);
  const positions = new Map(names.map((name, i) => [name, i]));
  const rows = new Map<string, Slot<Row>>();
  // Built on the first query by primary key, then kept up to date: most tables never need it.
  let primary: Index<Row> | null = null;
  // The row `prepare` looked up, for the `write` that follows it (a put is both, back to back): one lookup, not two.
  let preparedId: string | undefined;
  let preparedSlot: Slot<Row> | undefined;

  function indexOf(index: string): Index<Row> {
    if (index === PRIMARY_INDEX) return primary ??= buildPrimary();
    const i = positions.get(index);
    if (i === undefined) throw new Error(`no index ${def.name}.${index}`);
    return indexes[i]!;
  }

  function buildPrimary(): Index<Row> {
    const tree = createOrderStatisticTree<Slot<Row>>(compareById);
    for (const slot of rows.values()) tree.insert(slot);
    return { tree, keyOf: primaryKeyOf };
  }

  function checkUnique(i: number, key: IndexKey, id: string): void {
    const tree = trees[i]!;
    // Entries with this key sit together, ordered by id: one of the first two is another row's, if any.
    const start = tree.countWhile((slot) => compareKeys(slot.keys[i]!, key) < 0);
    for (const slot of [tree.at(start), tree.at(start + 1)]) {
      if (slot && slot.id !== id && compareKeys(slot.keys[i]!, key) === 0) {
        throw new UniqueViolation(def.name, names[i]!, key);
      }
    }
  }

  function insert(id: string, version: RowVersion<Row>): void {
    // A prepared version is made for one write: a new row's becomes its slot.
    const slot: Slot<Row> = version.id === id ? (version as Slot<Row>) : { id, row: version.row, keys: version.keys };
    rows.set(id, slot);
    const { keys } = slot;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i]) trees[i]!.insert(slot);
    }
    primary?.tree.insert(slot);
  }

  function remove(id: string, slot: Slot<Row>): void {
    rows.delete(id);
    const { keys } = slot;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i]) trees[i]!.delete(slot);
    }
    primary?.tree.delete(slot);
  }

  /** Moves the entries of `slot` whose key differs in `version`, then makes `version` the slot's. */
  function update(slot: Slot<Row>, version: RowVersion<Row>): void {
    const held = slot.keys;
    const next = version.keys;
    // Out of the trees by the key they hold, then back in by the new one: a tree orders slots by their current keys.
    for (let i = 0; i < trees.length; i++) {
      const before = held[i] ?? null;
      if (before !== null && !sameKey(before, next[i] ?? null)) trees[i]!.delete(slot);
    }
    slot.row = version.row;
    slot.keys = next;
    for (let i = 0; i < trees.length; i++) {
      const after = next[i] ?? null;
      if (after !== null && !sameKey(held[i] ?? null, after)) trees[i]!.insert(slot);
    }
  }

  return {
    def,
    get: (id) => rows.get(id)?.row,
    prepare(row) {
      const id = def.primaryKey(row);
      if (typeof id !== "string") throw new TypeError(`table ${def.name}: the primary key must be a string`);
      const slot = rows.get(id);
      const held = slot?.keys;
      // Sized once: a new row keeps this array as long as it is stored.
      const keys = new Array<IndexKey | null>(defs.length);
      for (let i = 0; i < defs.length; i++) {
        const index = defs[i]!;
        const key = index.key(row);
        if (key !== null) {
          checkKey(def.name, names[i]!, key);
          // A key the row holds already is its own: the index is unique, so no other row holds it.
          if (index.unique && !sameKey(held?.[i] ?? null, key)) checkUnique(i, key, id);
        }
        keys[i] = key;
      }
      preparedId = id;
      preparedSlot = slot;
      return { id, row, keys };
    },
    write(id, version, log) {
      const slot = id === preparedId ? preparedSlot : rows.get(id);
      preparedId = preparedSlot = undefined;
      if (!slot) {
        log?.push(id, undefined, undefined);
        if (version) insert(id, version);
        return false;
      }
      log?.push(id, slot.row, slot.keys);
      if (version) update(slot, version);
      else remove(id, slot);
      return true;
    },
    query(name, query) {
      const index = indexOf(name);
      const offset = checkCount("offset", query.offset) ?? 0;
      const limit = checkCount("limit", query.limit) ?? Infinity;
      let { start, end } = matchBounds(index.tree, index.keyOf, query);
      const desc = query.order === "desc";
      if (query.after) {
        // By value, not position: rows added or removed since the cursor was made shift nothing.
        if (desc) end = Math.min(end, index.tree.countWhile(beforeCursor(index.keyOf, query.after, false)));
        else start = Math.max(start, index.tree.countWhile(beforeCursor(index.keyOf, query.after, true)));
      }
      if (desc) {
        end -= offset;
        start = Math.max(start, end - limit);
      } else {
        start += offset;
        end = Math.min(end, start + limit);
      }
      if (start >= end) return [];
      const page = index.tree.slice(start, end);
      if (desc) page.reverse();
      return page.map((slot) => slot.row);
    },
    count(name, query) {
      const index = indexOf(name);
      const { start, end } = matchBounds(index.tree, index.keyOf, query);
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
  // By index, not for…of: the iterator's result objects were most of what a put allocated.
  for (let i = 0; i < key.length; i++) {
    const element = key[i];
    if (typeof element === "string" || (typeof element === "number" && !Number.isNaN(element))) continue;
    throw new TypeError(`index ${table}.${index}: key elements must be strings or numbers, got ${String(element)}`);
  }
}

function checkCount(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`query ${name} must be a whole number ≥ 0, got ${value}`);
  return value;
}

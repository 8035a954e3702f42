/*
 * An order-statistic B+tree: a sorted set where every node knows how many
 * items it holds, so that insert, delete, rank (how many items come before a
 * bound) and select (the item at a position) all take O(log n). This is what
 * lets one structure answer leaderboard top-N, offset pages, rank and score
 * updates at a million entries: a sorted array ranks in O(log n) but inserts
 * in O(n); a plain B-tree inserts in O(log n) but pages at an offset in O(n).
 */

/** The order of items: negative, zero or positive, as for `Array.prototype.sort`. */
export type Compare<T> = (a: T, b: T) => number;

/** Node sizes; small values exercise splits and merges in tests. */
export interface TreeOptions<T = unknown> {
  /** Most items in a leaf (at least 4). */
  leafCapacity?: number;
  /** Most children of an inner node (at least 4). */
  branchCapacity?: number;
  /**
   * The separator an item leaves in an inner node, compared like an item
   * (default: the item itself). A tree of items that change in place (the
   * memory storage's row slots, whose keys a write replaces while the slot
   * is out of the index) keeps a copy of their order here, so that a later
   * change cannot move a separator.
   */
  separator?: (item: T) => T;
}

/** A sorted set of distinct items (by `compare`) with positional access. */
export interface OrderStatisticTree<T> {
  /** How many items the tree holds. */
  readonly size: number;
  /** Adds `item`, or replaces the item equal to it; answers whether it was new. */
  insert(item: T): boolean;
  /** Removes the item equal to `item`; answers whether there was one. */
  delete(item: T): boolean;
  /** The stored item equal to `probe`, if any. */
  find(probe: T): T | undefined;
  /** The item at position `index` (0-based), if any. */
  at(index: number): T | undefined;
  /**
   * How many items satisfy `before`, which must hold for a prefix of the
   * items (if it holds for an item, it holds for every smaller one).
   */
  countWhile(before: (item: T) => boolean): number;
  /** How many items are smaller than `probe`: the position `probe` has or would have. */
  rank(probe: T): number;
  /** The items at positions `from` (inclusive) to `to` (exclusive), in order. */
  slice(from: number, to: number): T[];
  /** Removes every item. */
  clear(): void;
  /** Throws if a structural invariant is broken (for tests). */
  checkInvariants(): void;
}

interface Leaf<T> {
  readonly leaf: true;
  items: T[];
  prev: Leaf<T> | null;
  next: Leaf<T> | null;
}

interface Branch<T> {
  readonly leaf: false;
  children: TreeNode<T>[];
  /** seps[i] (i ≥ 1) is above every item of children[i-1] and at most every item of children[i]; seps[0] is unused. */
  seps: T[];
  /** counts[i] is how many items children[i] holds: kept here, in one packed array, so that rank and select read no child node. */
  counts: number[];
  size: number;
}

type TreeNode<T> = Leaf<T> | Branch<T>;

interface Split<T> {
  sep: T;
  right: TreeNode<T>;
}

// What an insert into a subtree did when it did not split it (no allocation on the hot path).
const REPLACED = 0;
const ADDED = 1;

const sizeOf = <T>(node: TreeNode<T>): number => (node.leaf ? node.items.length : node.size);
const widthOf = <T>(node: TreeNode<T>): number => (node.leaf ? node.items.length : node.children.length);
const newLeaf = <T>(items: T[]): Leaf<T> => ({ leaf: true, items, prev: null, next: null });

/** Creates an empty order-statistic tree ordered by `compare`. */
export function createOrderStatisticTree<T>(compare: Compare<T>, options: TreeOptions<T> = {}): OrderStatisticTree<T> {
  const leafMax = Math.max(4, options.leafCapacity ?? 64);
  const branchMax = Math.max(4, options.branchCapacity ?? 64);
  const leafMin = leafMax >> 1;
  const branchMin = branchMax >> 1;
  const separator = options.separator ?? ((item: T) => item);
  let root: TreeNode<T> = newLeaf([]);

  /** First position in `items` whose item is not below `probe`. */
  function lowerBound(items: readonly T[], probe: T): number {
    let lo = 0, hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(items[mid]!, probe) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The child of `node` whose range holds `probe`. */
  function childFor(node: Branch<T>, probe: T): number {
    let lo = 1, hi = node.seps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(node.seps[mid]!, probe) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  /** Adds `item` under `node`: answers REPLACED, ADDED, or the split `node` underwent. */
  function insertInto(node: TreeNode<T>, item: T): typeof REPLACED | typeof ADDED | Split<T> {
    if (node.leaf) {
      const at = lowerBound(node.items, item);
      if (at < node.items.length && compare(node.items[at]!, item) === 0) {
        node.items[at] = item;
        return REPLACED;
      }
      node.items.splice(at, 0, item);
      if (node.items.length <= leafMax) return ADDED;
      const right = newLeaf(node.items.splice(node.items.length >> 1));
      right.next = node.next;
      right.prev = node;
      if (node.next) node.next.prev = right;
      node.next = right;
      return { sep: separator(right.items[0]!), right };
    }
    const i = childFor(node, item);
    const result = insertInto(node.children[i]!, item);
    if (result === REPLACED) return result;
    node.size++;
    if (result === ADDED) {
      node.counts[i]!++;
      return result;
    }
    node.children.splice(i + 1, 0, result.right);
    node.seps.splice(i + 1, 0, result.sep);
    node.counts[i] = sizeOf(node.children[i]!);
    node.counts.splice(i + 1, 0, sizeOf(result.right));
    if (node.children.length <= branchMax) return ADDED;
    const half = node.children.length >> 1;
    const children = node.children.splice(half);
    const seps = node.seps.splice(half);
    const counts = node.counts.splice(half);
    const right: Branch<T> = { leaf: false, children, seps, counts, size: 0 };
    for (const n of counts) right.size += n;
    node.size -= right.size;
    return { sep: seps[0]!, right };
  }

  function deleteFrom(node: TreeNode<T>, item: T): boolean {
    if (node.leaf) {
      const at = lowerBound(node.items, item);
      if (at >= node.items.length || compare(node.items[at]!, item) !== 0) return false;
      node.items.splice(at, 1);
      return true;
    }
    const i = childFor(node, item);
    const child = node.children[i]!;
    if (!deleteFrom(child, item)) return false;
    node.size--;
    node.counts[i]!--;
    if (widthOf(child) < (child.leaf ? leafMin : branchMin)) rebalance(node, i);
    return true;
  }

  /** Refills the under-full child `i` of `parent` from a sibling, or merges it into one. */
  function rebalance(parent: Branch<T>, i: number): void {
    const child = parent.children[i]!;
    const left = i > 0 ? parent.children[i - 1]! : undefined;
    const right = i + 1 < parent.children.length ? parent.children[i + 1]! : undefined;
    const min = child.leaf ? leafMin : branchMin;
    if (left && widthOf(left) > min) borrowFromLeft(parent, i, left, child);
    else if (right && widthOf(right) > min) borrowFromRight(parent, i, child, right);
    else if (left) merge(parent, i - 1, left, child);
    else if (right) merge(parent, i, child, right);
  }

  function borrowFromLeft(parent: Branch<T>, i: number, left: TreeNode<T>, child: TreeNode<T>): void {
    if (left.leaf && child.leaf) {
      const moved = left.items.pop()!;
      child.items.unshift(moved);
      parent.seps[i] = separator(moved);
      parent.counts[i - 1]!--;
      parent.counts[i]!++;
      return;
    }
    const l = left as Branch<T>, c = child as Branch<T>;
    const moved = l.children.pop()!;
    const movedSep = l.seps.pop()!;
    c.children.unshift(moved);
    c.seps[0] = parent.seps[i]!;
    c.seps.unshift(movedSep);
    parent.seps[i] = movedSep;
    const n = l.counts.pop()!;
    c.counts.unshift(n);
    l.size -= n;
    c.size += n;
    parent.counts[i - 1]! -= n;
    parent.counts[i]! += n;
  }

  function borrowFromRight(parent: Branch<T>, i: number, child: TreeNode<T>, right: TreeNode<T>): void {
    if (child.leaf && right.leaf) {
      child.items.push(right.items.shift()!);
      parent.seps[i + 1] = separator(right.items[0]!);
      parent.counts[i]!++;
      parent.counts[i + 1]!--;
      return;
    }
    const c = child as Branch<T>, r = right as Branch<T>;
    const moved = r.children.shift()!;
    r.seps.shift();
    c.children.push(moved);
    c.seps.push(parent.seps[i + 1]!);
    parent.seps[i + 1] = r.seps[0]!;
    const n = r.counts.shift()!;
    c.counts.push(n);
    r.size -= n;
    c.size += n;
    parent.counts[i]! += n;
    parent.counts[i + 1]! -= n;
  }

  /** Moves everything of `parent.children[i + 1]` into `parent.children[i]`. */
  function merge(parent: Branch<T>, i: number, into: TreeNode<T>, from: TreeNode<T>): void {
    if (into.leaf && from.leaf) {
      into.items.push(...from.items);
      into.next = from.next;
      if (from.next) from.next.prev = into;
    } else {
      const a = into as Branch<T>, b = from as Branch<T>;
      a.children.push(...b.children);
      a.seps.push(parent.seps[i + 1]!, ...b.seps.slice(1));
      a.counts.push(...b.counts);
      a.size += b.size;
    }
    parent.counts[i]! += parent.counts[i + 1]!;
    parent.children.splice(i + 1, 1);
    parent.seps.splice(i + 1, 1);
    parent.counts.splice(i + 1, 1);
  }

  /** The leaf holding position `index` and the position inside it. */
  function locate(index: number): { leaf: Leaf<T>; offset: number } {
    let node = root;
    let rest = index;
    while (!node.leaf) {
      let i = 0;
      for (; i < node.children.length - 1; i++) {
        const n = node.counts[i]!;
        if (rest < n) break;
        rest -= n;
      }
      node = node.children[i]!;
    }
    return { leaf: node, offset: rest };
  }

  function countWhile(before: (item: T) => boolean): number {
    let node = root;
    let count = 0;
    while (!node.leaf) {
      // The last child whose lower bound still satisfies `before` holds the boundary.
      let lo = 1, hi = node.seps.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (before(node.seps[mid]!)) lo = mid + 1;
        else hi = mid;
      }
      const j = lo - 1;
      for (let k = 0; k < j; k++) count += node.counts[k]!;
      node = node.children[j]!;
    }
    let lo = 0, hi = node.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(node.items[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    return count + lo;
  }

  function at(index: number): T | undefined {
    if (!(index >= 0 && index < sizeOf(root))) return undefined;
    const { leaf, offset } = locate(Math.floor(index));
    return leaf.items[offset];
  }

  function rank(probe: T): number {
    return countWhile((item) => compare(item, probe) < 0);
  }

  function checkNode(node: TreeNode<T>, lower: T | undefined, upper: T | undefined, depth: number, depths: Set<number>, isRoot: boolean): number {
    const fail = (why: string): never => { throw new Error(`order-statistic tree: ${why}`); };
    if (node.leaf) {
      depths.add(depth);
      if (!isRoot && node.items.length < leafMin) fail("leaf under-full");
      if (node.items.length > leafMax) fail("leaf over-full");
      node.items.forEach((item, k) => {
        if (k > 0 && compare(node.items[k - 1]!, item) >= 0) fail("leaf out of order");
        if (lower !== undefined && compare(item, lower) < 0) fail("item below its separator");
        if (upper !== undefined && compare(item, upper) >= 0) fail("item not below the next separator");
      });
      return node.items.length;
    }
    if (node.seps.length !== node.children.length || node.counts.length !== node.children.length) fail("separators, counts and children differ in number");
    if (!isRoot && node.children.length < branchMin) fail("branch under-full");
    if (isRoot && node.children.length < 2) fail("root branch with one child");
    if (node.children.length > branchMax) fail("branch over-full");
    let total = 0;
    node.children.forEach((child, k) => {
      const lo = k === 0 ? lower : node.seps[k];
      const hi = k + 1 < node.children.length ? node.seps[k + 1] : upper;
      const n = checkNode(child, lo, hi, depth + 1, depths, false);
      if (node.counts[k] !== n) fail("child count is wrong");
      total += n;
    });
    if (total !== node.size) fail("branch size is wrong");
    return total;
  }

  return {
    get size() {
      return sizeOf(root);
    },
    insert(item) {
      // An item above every other (most indexes grow at their end: times, sequence numbers) goes into the last
      // leaf while it has room, with one comparison instead of a search at every level.
      let last = root;
      while (!last.leaf) last = last.children[last.children.length - 1]!;
      const { items } = last;
      if (items.length > 0 && items.length < leafMax && compare(items[items.length - 1]!, item) < 0) {
        items.push(item);
        for (let node = root; !node.leaf; node = node.children[node.children.length - 1]!) {
          node.size++;
          node.counts[node.counts.length - 1]!++;
        }
        return true;
      }
      const result = insertInto(root, item);
      if (result === REPLACED) return false;
      if (result !== ADDED) {
        const counts = [sizeOf(root), sizeOf(result.right)];
        root = { leaf: false, children: [root, result.right], seps: [result.sep, result.sep], counts, size: counts[0]! + counts[1]! };
      }
      return true;
    },
    delete(item) {
      if (!deleteFrom(root, item)) return false;
      if (!root.leaf && root.children.length === 1) root = root.children[0]!;
      return true;
    },
    find(probe) {
      const item = at(rank(probe));
      return item !== undefined && compare(item, probe) === 0 ? item : undefined;
    },
    at,
    countWhile,
    rank,
    slice(from, to) {
      const start = Math.max(0, Math.floor(from));
      const end = Math.min(sizeOf(root), Math.floor(to));
      const out: T[] = [];
      if (start >= end) return out;
      const first = locate(start);
      let offset = first.offset;
      let left = end - start;
      for (let node: Leaf<T> | null = first.leaf; node && left > 0; node = node.next, offset = 0) {
        const take = Math.min(left, node.items.length - offset);
        for (let k = 0; k < take; k++) out.push(node.items[offset + k]!);
        left -= take;
      }
      return out;
    },
    clear() {
      root = newLeaf([]);
    },
    checkInvariants() {
      const depths = new Set<number>();
      checkNode(root, undefined, undefined, 0, depths, true);
      if (depths.size > 1) throw new Error("order-statistic tree: leaves at different depths");
      // The leaf chain must visit every item once, in order.
      let first: TreeNode<T> = root;
      while (!first.leaf) first = first.children[0]!;
      let seen = 0;
      let prev: Leaf<T> | null = null;
      for (let node: Leaf<T> | null = first; node; prev = node, node = node.next) {
        if (node.prev !== prev) throw new Error("order-statistic tree: broken leaf chain");
        seen += node.items.length;
      }
      if (seen !== sizeOf(root)) throw new Error("order-statistic tree: leaf chain misses items");
    },
  };
}

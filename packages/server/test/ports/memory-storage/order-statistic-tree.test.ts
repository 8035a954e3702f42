import { describe, expect, it } from "vitest";
import { createOrderStatisticTree } from "../../../src/ports/memory-storage/order-statistic-tree.js";

const byNumber = (a: number, b: number) => a - b;

/** A tree of small nodes holding 0..n-1, inserted in a shuffled but fixed order. */
function treeOf(n: number, options = { leafCapacity: 4, branchCapacity: 4 }) {
  const tree = createOrderStatisticTree(byNumber, options);
  for (let i = 0; i < n; i++) tree.insert((i * 7919) % n);
  return tree;
}

describe("createOrderStatisticTree", () => {
  it("should start empty", () => {
    const tree = createOrderStatisticTree(byNumber);
    expect(tree.size).toBe(0);
    expect(tree.at(0)).toBeUndefined();
    expect(tree.slice(0, 10)).toEqual([]);
    expect(tree.rank(5)).toBe(0);
  });

  it("should keep items sorted and distinct whatever the insertion order", () => {
    const tree = treeOf(1000);
    tree.checkInvariants();
    expect(tree.size).toBe(1000);
    expect(tree.slice(0, 1000)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(tree.insert(500)).toBe(false);
    expect(tree.size).toBe(1000);
  });

  it("should replace an equal item on insert", () => {
    const tree = createOrderStatisticTree<{ k: number; v: string }>((a, b) => a.k - b.k);
    tree.insert({ k: 1, v: "old" });
    expect(tree.insert({ k: 1, v: "new" })).toBe(false);
    expect(tree.find({ k: 1, v: "" })).toEqual({ k: 1, v: "new" });
    expect(tree.size).toBe(1);
  });
});

describe("OrderStatisticTree.at", () => {
  it("should answer the item at a position, and undefined out of range", () => {
    const tree = treeOf(300);
    expect(tree.at(0)).toBe(0);
    expect(tree.at(150)).toBe(150);
    expect(tree.at(299)).toBe(299);
    expect(tree.at(300)).toBeUndefined();
    expect(tree.at(-1)).toBeUndefined();
  });
});

describe("OrderStatisticTree.rank", () => {
  it("should count the items below a probe, present or not", () => {
    const tree = createOrderStatisticTree(byNumber, { leafCapacity: 4, branchCapacity: 4 });
    for (let i = 0; i < 100; i++) tree.insert(i * 2);
    expect(tree.rank(0)).toBe(0);
    expect(tree.rank(1)).toBe(1);
    expect(tree.rank(100)).toBe(50);
    expect(tree.rank(1000)).toBe(100);
  });
});

describe("OrderStatisticTree.countWhile", () => {
  it("should count the prefix of items that satisfy a monotone predicate", () => {
    const tree = treeOf(500);
    expect(tree.countWhile((x) => x < 123)).toBe(123);
    expect(tree.countWhile((x) => x <= 123)).toBe(124);
    expect(tree.countWhile(() => true)).toBe(500);
    expect(tree.countWhile(() => false)).toBe(0);
  });
});

describe("OrderStatisticTree.delete", () => {
  it("should remove items, rebalance, and report whether the item was there", () => {
    const tree = treeOf(1000);
    for (let i = 0; i < 1000; i += 3) expect(tree.delete(i)).toBe(true);
    expect(tree.delete(0)).toBe(false);
    tree.checkInvariants();
    const rest = Array.from({ length: 1000 }, (_, i) => i).filter((i) => i % 3 !== 0);
    expect(tree.slice(0, tree.size)).toEqual(rest);
    for (const i of rest) tree.delete(i);
    tree.checkInvariants();
    expect(tree.size).toBe(0);
  });
});

describe("OrderStatisticTree.slice", () => {
  it("should answer the items between two positions across leaves, clamped to the tree", () => {
    const tree = treeOf(200);
    expect(tree.slice(95, 105)).toEqual([95, 96, 97, 98, 99, 100, 101, 102, 103, 104]);
    expect(tree.slice(195, 300)).toEqual([195, 196, 197, 198, 199]);
    expect(tree.slice(-5, 2)).toEqual([0, 1]);
    expect(tree.slice(10, 10)).toEqual([]);
  });
});

describe("OrderStatisticTree.clear", () => {
  it("should remove every item", () => {
    const tree = treeOf(100);
    tree.clear();
    expect(tree.size).toBe(0);
    expect(tree.slice(0, 100)).toEqual([]);
    tree.insert(3);
    expect(tree.slice(0, 1)).toEqual([3]);
  });
});

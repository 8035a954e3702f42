import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOrderStatisticTree } from "../../../src/ports/memory-storage/order-statistic-tree.js";

/** Items like index entries: a score and an id, ordered by score then id. */
interface Item { score: number; id: string }
const compare = (a: Item, b: Item) => a.score - b.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The model: a plain sorted array. */
function modelInsert(model: Item[], item: Item): boolean {
  const at = model.findIndex((x) => compare(x, item) >= 0);
  if (at >= 0 && compare(model[at]!, item) === 0) {
    model[at] = item;
    return false;
  }
  model.splice(at < 0 ? model.length : at, 0, item);
  return true;
}

function modelDelete(model: Item[], item: Item): boolean {
  const at = model.findIndex((x) => compare(x, item) === 0);
  if (at < 0) return false;
  model.splice(at, 1);
  return true;
}

describe("OrderStatisticTree (model-based)", () => {
  it("should agree with a sorted array on insert, delete, rank, at, slice and countWhile", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 9 }), fc.array(operation(), { maxLength: 400, size: "max" }), (capacity, ops) => {
        const tree = createOrderStatisticTree(compare, { leafCapacity: capacity, branchCapacity: capacity });
        const model: Item[] = [];
        for (const op of ops) {
          switch (op.kind) {
            case "insert":
              expect(tree.insert(op.item)).toBe(modelInsert(model, op.item));
              break;
            case "delete":
              expect(tree.delete(op.item)).toBe(modelDelete(model, op.item));
              break;
            case "rank":
              expect(tree.rank(op.item)).toBe(model.filter((x) => compare(x, op.item) < 0).length);
              break;
            case "at":
              expect(tree.at(op.index)).toBe(model[op.index]);
              break;
            case "slice":
              expect(tree.slice(op.from, op.to)).toEqual(model.slice(Math.max(0, op.from), Math.max(0, op.to)));
              break;
            case "scoreBelow":
              expect(tree.countWhile((x) => x.score < op.score)).toBe(model.filter((x) => x.score < op.score).length);
              break;
          }
          expect(tree.size).toBe(model.length);
        }
        tree.checkInvariants();
        expect(tree.slice(0, tree.size)).toEqual(model);
      }),
      { numRuns: 200 },
    );
  });

  it("should stay valid through long runs of mixed inserts and deletes", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 300 })), { minLength: 500, maxLength: 3000, size: "max" }), (ops) => {
        const tree = createOrderStatisticTree((a: number, b: number) => a - b, { leafCapacity: 4, branchCapacity: 4 });
        const model = new Set<number>();
        for (const [add, n] of ops) {
          if (add) { tree.insert(n); model.add(n); } else { tree.delete(n); model.delete(n); }
        }
        tree.checkInvariants();
        expect(tree.slice(0, tree.size)).toEqual([...model].sort((a, b) => a - b));
      }),
      { numRuns: 50 },
    );
  });

  it("should agree with a sorted array when most inserts append above every item (times, sequence numbers)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 9 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 3000 })), { minLength: 200, maxLength: 2000, size: "max" }), (capacity, ops) => {
        const tree = createOrderStatisticTree((a: number, b: number) => a - b, { leafCapacity: capacity, branchCapacity: capacity });
        const model: number[] = [];
        let top = 0;
        for (const [kind, n] of ops) {
          // 7 in 10 append (one above the largest so far, or equal to it: a replace), 2 insert anywhere, 1 deletes.
          const value = kind < 6 ? ++top : kind === 6 ? top : n;
          if (kind === 9) {
            const at = model.indexOf(value);
            expect(tree.delete(value)).toBe(at >= 0);
            if (at >= 0) model.splice(at, 1);
          } else {
            const at = model.findIndex((x) => x >= value);
            const added = at < 0 || model[at] !== value;
            expect(tree.insert(value)).toBe(added);
            if (added) model.splice(at < 0 ? model.length : at, 0, value);
            top = Math.max(top, value);
          }
          expect(tree.size).toBe(model.length);
        }
        tree.checkInvariants();
        expect(tree.slice(0, tree.size)).toEqual(model);
        for (let i = 0; i < model.length; i += 7) expect(tree.rank(model[i]!)).toBe(i);
      }),
      { numRuns: 100 },
    );
  });
});

// Arbitraries. Few distinct scores and ids, so that ties and repeats are common.
function item(): fc.Arbitrary<Item> {
  return fc.record({ score: fc.integer({ min: 0, max: 20 }), id: fc.constantFrom("a", "b", "c", "d", "e") });
}

type Operation =
  | { kind: "insert" | "delete" | "rank"; item: Item }
  | { kind: "at"; index: number }
  | { kind: "slice"; from: number; to: number }
  | { kind: "scoreBelow"; score: number };

function operation(): fc.Arbitrary<Operation> {
  return fc.oneof(
    { arbitrary: item().map((item) => ({ kind: "insert" as const, item })), weight: 5 },
    { arbitrary: item().map((item) => ({ kind: "delete" as const, item })), weight: 3 },
    { arbitrary: item().map((item) => ({ kind: "rank" as const, item })), weight: 1 },
    { arbitrary: fc.integer({ min: -2, max: 110 }).map((index) => ({ kind: "at" as const, index })), weight: 1 },
    { arbitrary: fc.tuple(fc.integer({ min: -2, max: 110 }), fc.integer({ min: -2, max: 110 })).map(([from, to]) => ({ kind: "slice" as const, from, to })), weight: 1 },
    { arbitrary: fc.integer({ min: -1, max: 22 }).map((score) => ({ kind: "scoreBelow" as const, score })), weight: 1 },
  );
}

import { PRIMARY_INDEX, UniqueViolation, compareKeys, defineTable, type IndexKey, type Storage, type Tx } from "@playfield/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMemoryStorage } from "../src/ports/memory-storage/index.js";

/*
 * Overwrites against a plain Map: random transactions of puts (keeping some
 * keys, changing others), deletes and unique-key swaps over a table with four
 * indexes, two of them unique (one with rows left out of it). After every
 * write, inside the transaction, each index must list exactly the model's
 * rows in the model's order; after each transaction, committed or failed,
 * queries, counts and ranks must match the model.
 */

interface Hero { id: string; guild: string; level: number; name: string; title: string | null; note: number }
const Heroes = defineTable<Hero>()({
  name: "heroes",
  primaryKey: (row) => row.id,
  indexes: {
    byGuild: { key: (row) => [row.guild, row.level] },
    byName: { key: (row) => [row.name], unique: true },
    byTitle: { key: (row) => (row.title === null ? null : [row.title]), unique: true },
    byLevel: { key: (row) => [row.level] },
  },
});
type HeroIndex = keyof typeof Heroes.indexes | typeof PRIMARY_INDEX;
const INDEXES: readonly HeroIndex[] = ["byGuild", "byName", "byTitle", "byLevel", PRIMARY_INDEX];
const UNIQUE = ["byName", "byTitle"] as const;

/** A name no generated row has, so that a swap through it never collides. */
const SPARE_NAME = "spare";

type Model = Map<string, Hero>;

function keyOf(index: HeroIndex, row: Hero): IndexKey | null {
  return index === PRIMARY_INDEX ? [row.id] : Heroes.indexes[index].key(row);
}

/** The model's rows of one index, in index order (key, then id). */
function modelIndex(model: Model, index: HeroIndex): Hero[] {
  return [...model.values()]
    .filter((row) => keyOf(index, row) !== null)
    .sort((a, b) => compareKeys(keyOf(index, a)!, keyOf(index, b)!) || (a.id < b.id ? -1 : 1));
}

/** The unique index and key another row already holds, in declaration order, as the adapter checks them. */
function expectedViolation(model: Model, row: Hero): { index: string; key: IndexKey } | undefined {
  for (const index of UNIQUE) {
    const key = keyOf(index, row);
    if (key === null) continue;
    const held = [...model.values()].some((other) => {
      const theirs = keyOf(index, other);
      return other.id !== row.id && theirs !== null && compareKeys(theirs, key) === 0;
    });
    if (held) return { index, key };
  }
  return undefined;
}

/** Every index, read inside `tx`, lists the model's rows in the model's order. */
async function expectIndexes(tx: Tx, model: Model): Promise<void> {
  for (const index of INDEXES) {
    expect(await tx.query(Heroes, index)).toEqual(modelIndex(model, index));
  }
}

type Op =
  | { kind: "put"; row: Hero }
  | { kind: "touch"; id: string; note: number }
  | { kind: "delete"; id: string }
  | { kind: "swapNames"; a: string; b: string };

/** Applies one put to the adapter and the model, expecting a UniqueViolation exactly when the model says so. */
async function put(tx: Tx, model: Model, row: Hero): Promise<void> {
  const violation = expectedViolation(model, row);
  if (violation) {
    const refused = tx.put(Heroes, row);
    await expect(refused).rejects.toBeInstanceOf(UniqueViolation);
    await expect(refused).rejects.toMatchObject({ table: Heroes.name, ...violation });
    return;
  }
  await tx.put(Heroes, row);
  model.set(row.id, row);
}

async function apply(tx: Tx, model: Model, op: Op): Promise<void> {
  switch (op.kind) {
    case "put":
      return put(tx, model, op.row);
    case "touch": {
      // An overwrite that changes no index key.
      const row = model.get(op.id);
      if (row) await put(tx, model, { ...row, note: op.note });
      return;
    }
    case "delete":
      expect(await tx.delete(Heroes, op.id)).toBe(model.delete(op.id));
      return;
    case "swapNames": {
      const a = model.get(op.a), b = model.get(op.b);
      if (!a || !b || a === b) return;
      // Straight across is refused (b holds the name); through a spare name it goes.
      await put(tx, model, { ...a, name: b.name });
      await put(tx, model, { ...a, name: SPARE_NAME });
      await put(tx, model, { ...b, name: a.name });
      await put(tx, model, { ...model.get(op.a)!, name: b.name });
      return;
    }
  }
}

/** Queries, counts and ranks after a transaction, against the model. */
async function expectReads(storage: Storage, model: Model): Promise<void> {
  await storage.transact(async (tx) => {
    await expectIndexes(tx, model);
    for (const guild of GUILDS) {
      const members = modelIndex(model, "byGuild").filter((row) => row.guild === guild);
      expect(await tx.count(Heroes, "byGuild", { equals: [guild] })).toBe(members.length);
      expect(await tx.query(Heroes, "byGuild", { equals: [guild], order: "desc", limit: 2 })).toEqual([...members].reverse().slice(0, 2));
      for (const level of LEVELS) {
        // A rank: how many of the guild stand above this level.
        expect(await tx.count(Heroes, "byGuild", { equals: [guild], range: { gt: level } })).toBe(members.filter((row) => row.level > level).length);
      }
    }
    for (const offset of [0, 1, 3]) {
      expect(await tx.query(Heroes, "byName", { offset, limit: 2 })).toEqual(modelIndex(model, "byName").slice(offset, offset + 2));
    }
    for (const index of INDEXES) expect(await tx.count(Heroes, index)).toBe(modelIndex(model, index).length);
  });
}

const IDS = ["h0", "h1", "h2", "h3", "h4", "h5"];
const GUILDS = ["a", "b"];
const LEVELS = [0, 1, 2];

const hero = (): fc.Arbitrary<Hero> => fc.record({
  id: fc.constantFrom(...IDS),
  guild: fc.constantFrom(...GUILDS),
  level: fc.constantFrom(...LEVELS),
  name: fc.constantFrom("n0", "n1", "n2", "n3", "n4", "n5"),
  title: fc.constantFrom(null, "t0", "t1", "t2"),
  note: fc.nat(3),
});

const op = (): fc.Arbitrary<Op> => fc.oneof(
  { weight: 4, arbitrary: hero().map((row) => ({ kind: "put" as const, row })) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("touch" as const), id: fc.constantFrom(...IDS), note: fc.nat(9) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), id: fc.constantFrom(...IDS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("swapNames" as const), a: fc.constantFrom(...IDS), b: fc.constantFrom(...IDS) }) },
);

const transaction = () => fc.record({ ops: fc.array(op(), { minLength: 1, maxLength: 8 }), fails: fc.boolean() });

describe("createMemoryStorage (overwrites, model-based)", () => {
  it("should keep every index equal to a Map model over puts that keep or change keys, deletes, unique swaps and failed transactions", async () => {
    await fc.assert(fc.asyncProperty(fc.array(transaction(), { minLength: 1, maxLength: 12 }), async (transactions) => {
      const storage = createMemoryStorage();
      let model: Model = new Map();
      for (const { ops, fails } of transactions) {
        const working: Model = new Map(model);
        const boom = new Error("rolled back");
        const done = storage.transact(async (tx) => {
          for (const step of ops) {
            await apply(tx, working, step);
            await expectIndexes(tx, working);
          }
          if (fails) throw boom;
        });
        if (fails) await expect(done).rejects.toBe(boom);
        else {
          await done;
          model = working;
        }
        await expectReads(storage, model);
      }
    }), { numRuns: 150 });
  });

  it("should show the new row through an index whose key an overwrite kept, in place", async () => {
    const storage = createMemoryStorage();
    const rows = IDS.map((id, i): Hero => ({ id, guild: "a", level: i % 2, name: `n${i}`, title: null, note: 0 }));
    await storage.transact(async (tx) => {
      for (const row of rows) await tx.put(Heroes, row);
    });
    const before = await storage.transact((tx) => tx.query(Heroes, "byGuild"));
    const touched = { ...rows[2]!, note: 7 };
    await storage.transact((tx) => tx.put(Heroes, touched));
    const after = await storage.transact((tx) => tx.query(Heroes, "byGuild"));
    expect(after.map((row) => row.id)).toEqual(before.map((row) => row.id));
    expect(after.find((row) => row.id === touched.id)).toBe(touched);
  });
});

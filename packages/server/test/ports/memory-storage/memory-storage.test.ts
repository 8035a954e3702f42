import { UniqueViolation, compareKeys, defineTable, type Tx } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { createMemoryStorage } from "../../../src/ports/memory-storage/index.js";
import { storageContract } from "@playfield/storage-contract";

storageContract("memory", createMemoryStorage);

interface Player { id: string; name: string; score: number }
const Players = defineTable<Player>()({
  name: "players",
  primaryKey: (row) => row.id,
  indexes: {
    byName: { key: (row) => [row.name], unique: true },
    byScore: { key: (row) => [row.score] },
  },
});

describe("createMemoryStorage", () => {
  it("should run transactions one at a time, in the order they were asked for", async () => {
    const storage = createMemoryStorage();
    const log: string[] = [];
    await Promise.all([3, 1, 2].map((n) => storage.transact(async () => {
      log.push(`start ${n}`);
      await new Promise((resolve) => setTimeout(resolve, n));
      log.push(`end ${n}`);
    })));
    expect(log).toEqual(["start 3", "end 3", "start 1", "end 1", "start 2", "end 2"]);
  });

  it("should refuse a tx used after its transaction finished", async () => {
    const storage = createMemoryStorage();
    let leaked: Tx | undefined;
    await storage.transact(async (tx) => { leaked = tx; });
    await expect(leaked!.get(Players, "p1")).rejects.toThrow(/finished/);
    await expect(leaked!.put(Players, { id: "p1", name: "ann", score: 1 })).rejects.toThrow(/finished/);
  });

  it("should keep a transaction usable after it caught a UniqueViolation, with nothing of the refused put", async () => {
    const storage = createMemoryStorage();
    await storage.transact((tx) => tx.put(Players, { id: "p1", name: "ann", score: 1 }));
    await storage.transact(async (tx) => {
      await expect(tx.put(Players, { id: "p2", name: "ann", score: 9 })).rejects.toBeInstanceOf(UniqueViolation);
      await tx.put(Players, { id: "p3", name: "cat", score: 3 });
    });
    const rows = await storage.transact((tx) => tx.query(Players, "byScore"));
    expect(rows.map((row) => row.id)).toEqual(["p1", "p3"]);
  });

  it("should reject a key element that cannot be ordered, and store nothing", async () => {
    const storage = createMemoryStorage();
    await expect(storage.transact((tx) => tx.put(Players, { id: "p1", name: "ann", score: Number.NaN }))).rejects.toBeInstanceOf(TypeError);
    expect(await storage.transact((tx) => tx.count(Players, "byName"))).toBe(0);
  });

  it("should reject an offset or limit that is not a whole number ≥ 0", async () => {
    const storage = createMemoryStorage();
    for (const query of [{ offset: -1 }, { limit: 1.5 }, { limit: -2 }]) {
      await expect(storage.transact((tx) => tx.query(Players, "byScore", query))).rejects.toBeInstanceOf(RangeError);
    }
  });

  it("should reserve the index name \"primary\" for the primary key", async () => {
    const Bad = defineTable<Player>()({ name: "bad", primaryKey: (row) => row.id, indexes: { primary: { key: (row) => [row.name] } } });
    const storage = createMemoryStorage();
    await expect(storage.transact((tx) => tx.get(Bad, "x"))).rejects.toThrow(/reserved/);
  });

  it("should keep the primary-key index in step with writes made after its first query", async () => {
    const storage = createMemoryStorage();
    const put = (id: string) => storage.transact((tx) => tx.put(Players, { id, name: id, score: 0 }));
    await put("b");
    expect(await storage.transact((tx) => tx.count(Players, "primary"))).toBe(1);
    await put("a");
    await storage.transact((tx) => tx.delete(Players, "b"));
    await expect(storage.transact(async (tx) => {
      await tx.put(Players, { id: "c", name: "c", score: 0 });
      throw new Error("undo");
    })).rejects.toThrow("undo");
    const rows = await storage.transact((tx) => tx.query(Players, "primary"));
    expect(rows.map((row) => row.id)).toEqual(["a"]);
  });

  it("should page at a deep offset and rank in a large ordered index", async () => {
    const storage = createMemoryStorage();
    const n = 20_000;
    await storage.transact(async (tx) => {
      for (let i = 0; i < n; i++) await tx.put(Players, { id: `p${i}`, name: `n${i}`, score: (i * 7919) % n });
    });
    const page = await storage.transact((tx) => tx.query(Players, "byScore", { offset: 12_345, limit: 3 }));
    expect(page.map((row) => row.score)).toEqual([12_345, 12_346, 12_347]);
    expect(await storage.transact((tx) => tx.count(Players, "byScore", { range: { gt: 15_000 } }))).toBe(n - 15_001);
  });

  // Each index holds the row's slot, whose keys a write replaces: a slot that was a separator of the
  // index's tree, then moved, must not move the separator (thousands of rows: many splits and merges).
  it("should keep every index in order while thousands of rows move, go and come back, with failed transactions between", async () => {
    interface Row { id: string; a: number; b: string; c: number | null }
    const keyOf = { byA: (r: Row) => [r.a], byBA: (r: Row) => [r.b, r.a], byC: (r: Row) => (r.c === null ? null : [r.c]) };
    const Rows = defineTable<Row>()({ name: "rows", primaryKey: (r) => r.id, indexes: { byA: { key: keyOf.byA }, byBA: { key: keyOf.byBA }, byC: { key: keyOf.byC } } });
    const storage = createMemoryStorage();
    const model = new Map<string, Row>();
    let seed = 7;
    const random = (n: number) => {
      seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5; seed >>>= 0;
      return seed % n;
    };
    for (let round = 0; round < 12; round++) {
      const fails = round % 4 === 3;
      const next = new Map(model);
      await storage.transact(async (tx) => {
        for (let k = 0; k < 1_500; k++) {
          const id = `r${random(4_000)}`;
          if (random(5) === 0) {
            await tx.delete(Rows, id);
            next.delete(id);
          } else {
            const row = { id, a: random(50), b: `b${random(7)}`, c: random(3) === 0 ? null : random(1_000) };
            await tx.put(Rows, row);
            next.set(id, row);
          }
        }
        if (fails) throw new Error("undo");
      }).catch((error: Error) => expect(error.message).toBe("undo"));
      if (!fails) {
        model.clear();
        for (const [id, row] of next) model.set(id, row);
      }
      for (const [index, key] of Object.entries(keyOf)) {
        const expected = [...model.values()].filter((r) => key(r) !== null).sort((x, y) => compareKeys(key(x)!, key(y)!) || (x.id < y.id ? -1 : 1)).map((r) => r.id);
        const rows = await storage.transact((tx) => tx.query(Rows, index));
        expect(rows.map((r) => r.id)).toEqual(expected);
      }
      expect(await storage.transact((tx) => tx.count(Rows, "byA", { equals: [round] }))).toBe([...model.values()].filter((r) => r.a === round).length);
    }
  });
});

import { PRIMARY_INDEX, tables } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { hostileWorld } from "./hostile-world.js";

/*
 * The properties trust `settle` to see what a refused call wrote and to put
 * the world back: a write it missed would let a half-written record pass.
 */
describe("the hostile world's settle", () => {
  it("should name a table a refused case changed, even in a failed transaction, and put every written table back", async () => {
    await using world = await hostileWorld();
    const { storage } = world.server.deps;
    const read = () => storage.transact((tx) => tx.query(tables.datastoreEntries, PRIMARY_INDEX));
    const before = await read();
    expect(await world.settle(true)).toEqual([]);
    await storage.transact(async (tx) => {
      const [entry] = await tx.query(tables.datastoreEntries, PRIMARY_INDEX);
      await tx.put(tables.datastoreEntries, { ...entry!, value: "{\"coins\":6}" });
    });
    // A failed transaction keeps nothing: settle looks at its tables all the same.
    await expect(storage.transact(async (tx) => {
      await tx.delete(tables.datastoreEntries, tables.datastoreEntries.primaryKey(before[0]!));
      throw new Error("refused");
    })).rejects.toThrow("refused");
    expect(await world.settle(true)).toEqual(["datastore_entries"]);
    expect(await read()).toEqual(before);
    await storage.transact(async (tx) => { await tx.delete(tables.datastoreEntries, tables.datastoreEntries.primaryKey(before[0]!)); });
    expect(await world.settle(false)).toEqual([]);
    expect(await read()).toEqual(before);
  });
});

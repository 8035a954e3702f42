import { DatastoreService, tables, type DatastoreEntryRow } from "@playfield/core";
import { describe, expect, it } from "vitest";
import { nestedArrays } from "../hostile/hostile-input.js";
import { call, hostileWorld } from "../hostile/hostile-world.js";

/*
 * A value nested 30,000 deep, once stored, made every later Update of its
 * key answer 500 (JSON.stringify of the merge overflowed the stack). Set now
 * refuses such values, but one already stored (before the limit, or
 * restored from a snapshot) must still never make a later call fail:
 * Update merges as text, and Get, ListKeys and ExportMyData hand the text back.
 */
describe("a stored value nested deeper than any limit", () => {
  it("should never make a later call of its key fail", async () => {
    await using world = await hostileWorld();
    const game = world.callerFor("game").token;
    const handler = world.fetch;
    const deep = `{"deep":${nestedArrays(30_000)},"coins":1}`;
    await world.server.deps.storage.transact(async (tx) => {
      const rows = await tx.query(tables.datastoreEntries, "byOwner", {});
      const row = rows.find((r) => r.key === "save")!;
      await tx.put(tables.datastoreEntries, { ...row, value: deep } satisfies DatastoreEntryRow);
    });
    const m = DatastoreService.methods;
    const update = await call(handler, world.baseUrl, m.update, JSON.stringify({ key: "save", patch: "{\"coins\":2}" }), game);
    expect(update.status).toBe(200);
    expect(update.body).toMatchObject({ value: `{"deep":${nestedArrays(30_000)},"coins":2}` });
    const get = await call(handler, world.baseUrl, m.get, JSON.stringify({ key: "save" }), game);
    expect([get.status, (get.body as { value?: string }).value]).toEqual([200, `{"deep":${nestedArrays(30_000)},"coins":2}`]);
    expect((await call(handler, world.baseUrl, m.listKeys, "{}", game)).status).toBe(200);
    expect((await call(handler, world.baseUrl, m.exportMyData, "{}", world.callerFor("guest").token)).status).toBe(200);
    const set = await call(handler, world.baseUrl, m.set, JSON.stringify({ key: "save", value: "{\"fresh\":true}" }), game);
    expect(set.status).toBe(200);
    expect(world.internalErrors).toEqual([]);
  });
});

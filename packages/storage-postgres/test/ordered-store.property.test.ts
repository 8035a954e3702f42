/*
 * Ordered stores (leaderboards) on PGlite and PostgreSQL give exactly the
 * memory adapter's answers: random sequences of sets, increments and
 * removes, grouped into transactions (some rolled back), with pages at any
 * offset in both orders, a key's rank and counts over value ranges read in
 * between; the first boards are written by sets or, on PGlite and
 * PostgreSQL, by a bulk `load` (which counts them at once). Buckets of 4 entries make every run split and merge counts many
 * times; pages and counts past 4 entries take the counted path.
 */
import { tables, type OrderedEntryRow, type Storage, type Tx } from "@playfield/core";
import { createMemoryStorage, orderedRank } from "@playfield/server";
import fc from "fast-check";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createPgliteStorage, createPostgresStorage, type SqlStorage } from "../src/index.js";
import { dropSchema, freshSchema } from "./postgres-schema.js";

const url = inject("postgresUrl");
const EXPERIENCE = "exp";
const BOARDS = ["b0", "b1"];
const KEYS = Array.from({ length: 24 }, (_, i) => `k${i}`);

type Command =
  | { kind: "set"; board: string; key: string; value: number }
  | { kind: "increment"; board: string; key: string; delta: number }
  | { kind: "remove"; board: string; key: string }
  | { kind: "page"; board: string; ascending: boolean; offset: number; limit: number }
  | { kind: "rank"; board: string; key: string }
  | { kind: "count"; board: string; ascending: boolean; lo: number; hi: number };

const board = fc.constantFrom(...BOARDS);
const key = fc.constantFrom(...KEYS);
// Few values, so that ties (ordered by key) are common.
const value = fc.integer({ min: -6, max: 6 });
const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("set" as const), board, key, value }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("increment" as const), board, key, delta: fc.integer({ min: -3, max: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("remove" as const), board, key }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("page" as const), board, ascending: fc.boolean(), offset: fc.integer({ min: 0, max: 26 }), limit: fc.integer({ min: 1, max: 12 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("rank" as const), board, key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("count" as const), board, ascending: fc.boolean(), lo: value, hi: value }) },
);
/**
 * Boards of many buckets first (one transaction of sets, or on an SQL storage when `load` is
 * set, the rows it leaves written by `SqlStorage.load`), then commands in transactions of one
 * to four; a transaction marked `abort` throws after its commands, keeping nothing.
 */
const transactions = fc.tuple(
  fc.array(fc.record({ kind: fc.constant("set" as const), board, key, value }), { minLength: 10, maxLength: 40 }),
  fc.array(fc.record({ commands: fc.array(command, { minLength: 1, maxLength: 4 }), abort: fc.boolean() }), { minLength: 1, maxLength: 30 }),
  fc.boolean(),
).map(([seed, rest, load]) => [{ commands: seed as Command[], abort: false, load }, ...rest.map((tx) => ({ ...tx, load: false }))]);

class Abort extends Error {}

/** Runs one command as the datastore service would, answering what a caller reads. */
async function apply(tx: Tx, c: Command): Promise<unknown> {
  const id = tables.orderedEntryId(EXPERIENCE, c.board, "key" in c ? c.key : "");
  switch (c.kind) {
    case "set":
    case "increment": {
      const current = await tx.get(tables.orderedEntries, id);
      const value = c.kind === "set" ? c.value : (current?.value ?? 0) + c.delta;
      const row: OrderedEntryRow = { id, experienceId: EXPERIENCE, store: c.board, key: c.key, value, updatedAt: 0 };
      await tx.put(tables.orderedEntries, row);
      return value;
    }
    case "remove":
      return tx.delete(tables.orderedEntries, id);
    case "page": {
      const rows = await tx.query(tables.orderedEntries, c.ascending ? "bottom" : "top", { equals: [EXPERIENCE, c.board], offset: c.offset, limit: c.limit });
      return rows.map((row) => [row.key, row.value]);
    }
    case "rank":
      return orderedRank(tx, EXPERIENCE, c.board, c.key);
    case "count": {
      const [lo, hi] = [Math.min(c.lo, c.hi), Math.max(c.lo, c.hi)];
      // Values in [lo, hi] on either index: `top` holds -value.
      const range = c.ascending ? { gte: lo, lte: hi } : { gte: -hi || 0, lte: -lo || 0 };
      return tx.count(tables.orderedEntries, c.ascending ? "bottom" : "top", { equals: [EXPERIENCE, c.board], range });
    }
  }
}

/** Runs the transactions on `storage`, answering every command's answer (a rolled-back transaction's included) and the final boards. */
async function play(storage: Storage, txs: { commands: Command[]; abort: boolean; load: boolean }[]): Promise<unknown[]> {
  await storage.clear();
  const answers: unknown[] = [];
  for (const { commands, abort, load } of txs) {
    if (load && "load" in storage) {
      // The rows the sets leave (the last value of each key), then the values they answered.
      const sets = commands.flatMap((c) => (c.kind === "set" ? [c] : []));
      const rows = new Map(sets.map((c): [string, OrderedEntryRow] => {
        const id = tables.orderedEntryId(EXPERIENCE, c.board, c.key);
        return [id, { id, experienceId: EXPERIENCE, store: c.board, key: c.key, value: c.value, updatedAt: 0 }];
      }));
      await (storage as SqlStorage).load([tables.orderedEntries], (put) => put(tables.orderedEntries, [...rows.values()]));
      answers.push(sets.map((c) => c.value));
      continue;
    }
    try {
      answers.push(await storage.transact(async (tx) => {
        const seen = [];
        for (const c of commands) seen.push(await apply(tx, c));
        if (abort) throw new Abort();
        return seen;
      }));
    } catch (error) {
      if (!(error instanceof Abort)) throw error;
      answers.push("aborted");
    }
  }
  answers.push(await storage.transact((tx) => Promise.all(BOARDS.flatMap((b) => [
    apply(tx, { kind: "page", board: b, ascending: false, offset: 0, limit: 100 }),
    apply(tx, { kind: "page", board: b, ascending: true, offset: 0, limit: 100 }),
    tx.count(tables.orderedEntries, "top", { equals: [EXPERIENCE, b] }),
  ]))));
  return answers;
}

function orderedStoreProperty(name: string, open: () => SqlStorage, numRuns: number) {
  const memory = createMemoryStorage();
  let storage: SqlStorage;
  afterAll(() => storage?.close());

  it(`should answer every ordered-store read on ${name} exactly as the memory adapter does`, async () => {
    storage ??= open();
    await fc.assert(fc.asyncProperty(transactions, async (txs) => {
      expect(await play(storage, txs)).toEqual(await play(memory, txs));
    }), { numRuns });
  }, 240_000);
}

describe("ordered stores on PGlite, against memory", () => {
  orderedStoreProperty("PGlite", () => createPgliteStorage({ countedBucketRows: 4 }), 15);
});

describe.skipIf(url === null)("ordered stores on PostgreSQL, against memory", () => {
  const schema = freshSchema("ordered");
  afterAll(() => dropSchema(url!, schema));
  orderedStoreProperty("PostgreSQL", () => createPostgresStorage({ url: url!, schema, countedBucketRows: 4 }), 40);
});

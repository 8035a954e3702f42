/*
 * The storage conformance suite: every rule of the storage port, as Vitest
 * tests, run over any adapter. The in-memory adapter runs it; an integrator
 * proves an adapter the same way:
 *
 *   storageContract("postgres", () => createPostgresStorage(pool));
 *
 * It uses only the port (`@playfield/core`) and declares its own tables, so
 * it knows nothing of any adapter's internals. Rows are compared by value
 * (`toEqual`): an adapter may return copies. Every test starts from `clear()`.
 */
import { UniqueViolation, compareKeys, cursorOf, defineTable, transactAfterReads, type CountQuery, type Cursor, type IndexKey, type KeyRange, type Query, type Storage, type TableDef, type Tx } from "@playfield/core";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";

/** Tuning for slow adapters (a networked database, for example). */
export interface StorageContractOptions {
  /** Runs per property test (default 30). */
  numRuns?: number;
  /** Timeout per test in milliseconds (default 30 000). */
  timeout?: number;
}

/**
 * How many times a transaction may run when many writers contend for one row
 * (an adapter runs it again after a conflict). The memory adapter runs each
 * once; a database adapter must make sure a writer is not beaten forever.
 */
const MAX_RUNS_UNDER_CONTENTION = 10;

/** The index name that queries a table by primary key, ordered by id (key `[id]`). */
const PRIMARY = "primary";

interface Account { id: string; owner: string; balance: number; email: string | null }
const Accounts = defineTable<Account>()({
  name: "contract_accounts",
  primaryKey: (row) => row.id,
  indexes: {
    byOwner: { key: (row) => [row.owner, row.balance] },
    byEmail: { key: (row) => (row.email === null ? null : [row.email]), unique: true },
  },
});

interface Score { id: string; board: string; score: number }
const Scores = defineTable<Score>()({
  name: "contract_scores",
  primaryKey: (row) => row.id,
  indexes: { byScore: { key: (row) => [row.board, row.score] } },
});

/** Rows whose keys mix numbers and strings, for ordering rules and the model test. */
interface Item { id: string; group: string | number; n: number; tag: string | null }
const Items = defineTable<Item>()({
  name: "contract_items",
  primaryKey: (row) => row.id,
  indexes: {
    byGroup: { key: (row) => [row.group, row.n] },
    byTag: { key: (row) => (row.tag === null ? null : [row.tag]), unique: true },
  },
});

/** Rows with a field no index reads, so that an overwrite can keep every key. */
interface Player { id: string; board: string; score: number; name: string; note: number }
const Players = defineTable<Player>()({
  name: "contract_players",
  primaryKey: (row) => row.id,
  indexes: {
    byScore: { key: (row) => [row.board, row.score] },
    byName: { key: (row) => [row.name], unique: true },
  },
});

/** A leaderboard: counted indexes, so that counts and offsets cost the same at any size. */
interface Rank { id: string; board: string; score: number }
const Ranks = defineTable<Rank>()({
  name: "contract_ranks",
  primaryKey: (row) => row.id,
  indexes: {
    byScore: { key: (row) => [row.board, row.score], counted: true },
    byId: { key: (row) => [row.board, row.id], unique: true, counted: true },
  },
});

interface Member { id: string; room: string }
const Members = defineTable<Member>()({
  name: "contract_members",
  primaryKey: (row) => row.id,
  indexes: { byRoom: { key: (row) => [row.room] } },
});

/** Read by read-only transactions on every call and written rarely: an adapter may copy its rows (docs/storage.md, "Cached rows"). */
const Devices = defineTable<Account>()({
  name: "contract_devices",
  primaryKey: (row) => row.id,
  indexes: {},
  cachedReads: true,
});

/** Read and then written by the same calls: an adapter may answer a writing transaction's get from a copy it checks (docs/storage.md, "Checked copies"). */
const Wallets = defineTable<Account>()({
  name: "contract_wallets",
  primaryKey: (row) => row.id,
  indexes: {},
  checkedCopies: true,
});

/** Lets other transactions run, if the adapter interleaves them. */
const pause = (turns = 1) => new Promise<void>((resolve) => {
  let left = turns;
  const step = () => (left-- <= 0 ? resolve() : setTimeout(step, 0));
  step();
});

const account = (id: string, owner: string, balance: number, email: string | null = null): Account => ({ id, owner, balance, email });
const score = (id: string, value: number, board = "b"): Score => ({ id, board, score: value });
const player = (id: string, value: number, note = 0): Player => ({ id, board: "b", score: value, name: `name-${id}`, note });
const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

/**
 * Registers the storage conformance tests for one adapter.
 *
 * @param name - shown in the test names.
 * @param makeStorage - makes the storage under test; called before each test, which then calls `clear()`.
 * @param options - property-test runs and timeouts, for slower adapters.
 * @example
 * storageContract("memory", createMemoryStorage);
 */
export function storageContract(name: string, makeStorage: () => Storage | Promise<Storage>, options: StorageContractOptions = {}): void {
  const numRuns = options.numRuns ?? 30;
  const timeout = options.timeout ?? 30_000;

  describe(`storage contract: ${name}`, { timeout }, () => {
    let storage: Storage;
    beforeEach(async () => {
      storage = await makeStorage();
      await storage.clear();
    });

    const run = <T>(fn: (tx: Tx) => Promise<T>) => storage.transact(fn);
    const putAll = <R>(table: TableDef<R>, rows: readonly R[]) => run(async (tx) => {
      for (const row of rows) await tx.put(table, row);
    });
    const query = <R>(table: TableDef<R>, index: string, q?: Query) => run((tx) => tx.query(table, index, q));
    const count = <R>(table: TableDef<R>, index: string, q?: CountQuery) => run((tx) => tx.count(table, index, q));

    describe("Tx.get", () => {
      it("should answer undefined for a row that does not exist", async () => {
        expect(await run((tx) => tx.get(Accounts, "nobody"))).toBeUndefined();
      });

      it("should answer a row put by an earlier transaction", async () => {
        await putAll(Accounts, [account("a1", "ann", 10, "ann@example.com")]);
        expect(await run((tx) => tx.get(Accounts, "a1"))).toEqual(account("a1", "ann", 10, "ann@example.com"));
      });

      it("should keep tables apart: the same id in two tables names two rows", async () => {
        await putAll(Accounts, [account("x", "ann", 1)]);
        await putAll(Scores, [score("x", 5)]);
        expect(await run((tx) => tx.get(Accounts, "x"))).toEqual(account("x", "ann", 1));
        expect(await run((tx) => tx.get(Scores, "x"))).toEqual(score("x", 5));
      });
    });

    describe("Tx.getMany", () => {
      it("should answer the rows in the order asked, undefined where there is none, and an id asked twice twice", async () => {
        await putAll(Accounts, [account("a1", "ann", 1), account("a2", "bob", 2), account("a3", "cat", 3)]);
        expect(await run((tx) => tx.getMany(Accounts, ["a3", "nobody", "a1", "a3"]))).toEqual([
          account("a3", "cat", 3), undefined, account("a1", "ann", 1), account("a3", "cat", 3),
        ]);
        expect(await run((tx) => tx.getMany(Accounts, []))).toEqual([]);
      });

      it("should answer thousands of ids at once, in order (an adapter may split them into several statements)", async () => {
        await putAll(Scores, Array.from({ length: 2_500 }, (_, i) => score(`s${i}`, i)));
        const asked = Array.from({ length: 2_600 }, (_, i) => `s${2_599 - i}`);
        const rows = await run((tx) => tx.getMany(Scores, asked));
        expect(rows.slice(0, 100)).toEqual(Array.from({ length: 100 }, () => undefined));
        expect(rows.slice(100)).toEqual(Array.from({ length: 2_500 }, (_, i) => score(`s${2_499 - i}`, 2_499 - i)));
      });

      it("should see the transaction's own writes and deletes, and keep tables apart", async () => {
        await putAll(Accounts, [account("a1", "ann", 1), account("x", "xavier", 9)]);
        await putAll(Scores, [score("x", 5)]);
        const seen = await run(async (tx) => {
          await tx.put(Accounts, account("a2", "bob", 2));
          await tx.delete(Accounts, "a1");
          return tx.getMany(Accounts, ["a1", "a2", "x"]);
        });
        expect(seen).toEqual([undefined, account("a2", "bob", 2), account("x", "xavier", 9)]);
        expect(await run((tx) => tx.getMany(Scores, ["x"]))).toEqual([score("x", 5)]);
      });

      it("should give the same rows as get, one by one, for any ids", async () => {
        await fc.assert(fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 6 }), fc.array(fc.integer({ min: 0, max: 12 }), { maxLength: 8 }), async (stored, asked) => {
          await storage.clear();
          await putAll(Scores, stored.map((n) => score(`s${n}`, n)));
          const ids = asked.map((n) => `s${n}`);
          const many = await run((tx) => tx.getMany(Scores, ids));
          const single = await run(async (tx) => {
            const rows: (Score | undefined)[] = [];
            for (const id of ids) rows.push(await tx.get(Scores, id));
            return rows;
          });
          expect(many).toEqual(single);
        }), { numRuns });
      });
    });

    describe("Tx.put", () => {
      it("should replace the row with the same primary key, index entries included", async () => {
        await putAll(Accounts, [account("a1", "ann", 10)]);
        await putAll(Accounts, [account("a1", "bob", 20)]);
        expect(await run((tx) => tx.get(Accounts, "a1"))).toEqual(account("a1", "bob", 20));
        expect(await query(Accounts, "byOwner", { equals: ["ann"] })).toEqual([]);
        expect(await query(Accounts, "byOwner", { equals: ["bob"] })).toEqual([account("a1", "bob", 20)]);
        expect(await count(Accounts, "byOwner")).toBe(1);
      });

      it("should leave a row out of an index whose key is null", async () => {
        await putAll(Accounts, [account("a1", "ann", 1, "a@x"), account("a2", "ann", 2)]);
        expect(ids(await query(Accounts, "byEmail"))).toEqual(["a1"]);
        expect(await count(Accounts, "byEmail")).toBe(1);
        expect(await count(Accounts, "byOwner")).toBe(2);
      });

      it("should take a row out of an index when its key becomes null", async () => {
        await putAll(Accounts, [account("a1", "ann", 1, "a@x")]);
        await putAll(Accounts, [account("a1", "ann", 1)]);
        expect(await query(Accounts, "byEmail")).toEqual([]);
      });

      it("should keep a row's place in every index when an overwrite keeps its keys, and answer the new row there", async () => {
        await putAll(Players, [player("p1", 10), player("p2", 20), player("p3", 30)]);
        const cursor = cursorOf(Players, "byScore", player("p1", 10));
        await putAll(Players, [player("p2", 20, 5)]);
        expect(await query(Players, "byScore")).toEqual([player("p1", 10), player("p2", 20, 5), player("p3", 30)]);
        expect(await query(Players, "byName", { equals: ["name-p2"] })).toEqual([player("p2", 20, 5)]);
        expect(await query(Players, "byScore", { after: cursor, limit: 1 })).toEqual([player("p2", 20, 5)]);
        expect(await count(Players, "byScore", { equals: ["b"], range: { gt: 10 } })).toBe(2);
      });

      it("should move a row in the index whose key an overwrite changed, and only there", async () => {
        await putAll(Players, [player("p1", 10), player("p2", 20), player("p3", 30)]);
        await putAll(Players, [player("p1", 40, 1)]);
        expect(ids(await query(Players, "byScore"))).toEqual(["p2", "p3", "p1"]);
        expect(await query(Players, "byName")).toEqual([player("p1", 40, 1), player("p2", 20), player("p3", 30)]);
        expect(await count(Players, "byScore", { equals: ["b"], range: { gt: 25 } })).toBe(2);
      });
    });

    describe("Tx.delete", () => {
      it("should answer true and remove the row from reads, queries and counts", async () => {
        await putAll(Accounts, [account("a1", "ann", 1, "a@x"), account("a2", "ann", 2)]);
        expect(await run((tx) => tx.delete(Accounts, "a1"))).toBe(true);
        expect(await run((tx) => tx.get(Accounts, "a1"))).toBeUndefined();
        expect(ids(await query(Accounts, "byOwner"))).toEqual(["a2"]);
        expect(await count(Accounts, "byEmail")).toBe(0);
      });

      it("should answer false when there was no such row", async () => {
        expect(await run((tx) => tx.delete(Accounts, "nobody"))).toBe(false);
      });
    });

    describe("Storage.transact", () => {
      it("should resolve to what the function returns", async () => {
        expect(await run(async () => 42)).toBe(42);
      });

      it("should let a transaction read its own writes in get, query and count", async () => {
        await putAll(Scores, [score("s1", 5), score("s2", 7)]);
        const seen = await run(async (tx) => {
          await tx.put(Scores, score("s3", 6));
          await tx.delete(Scores, "s2");
          await tx.put(Scores, score("s1", 9));
          return {
            s1: await tx.get(Scores, "s1"),
            s2: await tx.get(Scores, "s2"),
            order: ids(await tx.query(Scores, "byScore", { equals: ["b"] })),
            above5: await tx.count(Scores, "byScore", { equals: ["b"], range: { gt: 5 } }),
          };
        });
        expect(seen).toEqual({ s1: score("s1", 9), s2: undefined, order: ["s3", "s1"], above5: 2 });
      });

      it("should keep nothing a failing transaction wrote, and rethrow its error", async () => {
        await putAll(Accounts, [account("a1", "ann", 10, "a@x"), account("a2", "bob", 20)]);
        const boom = new Error("boom");
        await expect(run(async (tx) => {
          await tx.put(Accounts, account("a1", "ann", 99, "new@x"));
          await tx.delete(Accounts, "a2");
          await tx.put(Accounts, account("a3", "cat", 30, "a@x-free"));
          throw boom;
        })).rejects.toBe(boom);
        expect(await run((tx) => tx.get(Accounts, "a1"))).toEqual(account("a1", "ann", 10, "a@x"));
        expect(await run((tx) => tx.get(Accounts, "a2"))).toEqual(account("a2", "bob", 20));
        expect(await run((tx) => tx.get(Accounts, "a3"))).toBeUndefined();
        expect(await query(Accounts, "byOwner")).toEqual([account("a1", "ann", 10, "a@x"), account("a2", "bob", 20)]);
        expect(ids(await query(Accounts, "byEmail", { equals: ["a@x"] }))).toEqual(["a1"]);
        expect(await count(Accounts, "byEmail", { equals: ["new@x"] })).toBe(0);
      });

      it("should put every index back after a failing transaction of overwrites that kept and changed keys", async () => {
        await putAll(Players, [player("p1", 10), player("p2", 20), player("p3", 30), player("p4", 40)]);
        const before = await Promise.all(["byScore", "byName", PRIMARY].map((index) => query(Players, index)));
        const boom = new Error("boom");
        await expect(run(async (tx) => {
          await tx.put(Players, player("p1", 10, 7));
          await tx.put(Players, player("p2", 35));
          await tx.delete(Players, "p4");
          await tx.put(Players, { ...player("p3", 5), name: "name-p4" });
          await tx.put(Players, player("p1", 1, 8));
          throw boom;
        })).rejects.toBe(boom);
        expect(await Promise.all(["byScore", "byName", PRIMARY].map((index) => query(Players, index)))).toEqual(before);
        expect(await count(Players, "byScore", { equals: ["b"], range: { gt: 15 } })).toBe(3);
      });

      it("should finish many concurrent writers of one hot row in a bounded number of runs each, none failing and no update lost", async () => {
        // The pattern of a counter every write bumps (a ledger's next sequence number): each
        // writer reads the counter, pauses, writes its own row with the number, and bumps it.
        const writers = 48;
        await putAll(Accounts, [account("seq", "sys", 0)]);
        const runs = await Promise.all(Array.from({ length: writers }, async (_, i) => {
          let times = 0;
          await run(async (tx) => {
            times++;
            const counter = (await tx.get(Accounts, "seq"))!;
            await pause();
            await tx.put(Members, { id: `entry${counter.balance}`, room: `writer${i}` });
            await tx.put(Accounts, { ...counter, balance: counter.balance + 1 });
          });
          return times;
        }));
        expect((await run((tx) => tx.get(Accounts, "seq")))?.balance).toBe(writers);
        const entries = await query(Members, PRIMARY);
        expect(entries).toHaveLength(writers);
        expect(new Set(entries.map((entry) => entry.room)).size).toBe(writers);
        // An adapter may run a transaction again on a conflict, but not without bound.
        expect(Math.max(...runs)).toBeLessThanOrEqual(MAX_RUNS_UNDER_CONTENTION);
      });

      it("should finish many concurrent writers of different rows, each a read-modify-write, in a bounded number of runs, none failing", async () => {
        // The pattern of per-user rows (wallets) and of counters split in shards summed on read:
        // writers that touch disjoint rows must not keep failing each other.
        const writers = 48;
        await putAll(Accounts, Array.from({ length: writers }, (_, i) => account(`own${i}`, "sys", 0)));
        const runs = await Promise.all(Array.from({ length: writers }, async (_, i) => {
          let times = 0;
          await run(async (tx) => {
            times++;
            const row = (await tx.get(Accounts, `own${i}`))!;
            await pause();
            await tx.put(Members, { id: `own-entry${i}`, room: `writer${i}` });
            await tx.put(Accounts, { ...row, balance: row.balance + 1 });
          });
          return times;
        }));
        const rows = await run((tx) => tx.getMany(Accounts, Array.from({ length: writers }, (_, i) => `own${i}`)));
        expect(rows.map((row) => row?.balance)).toEqual(Array.from({ length: writers }, () => 1));
        expect(await count(Members, PRIMARY)).toBe(writers);
        expect(Math.max(...runs)).toBeLessThanOrEqual(MAX_RUNS_UNDER_CONTENTION);
      });

      it("should keep a counter split in shards exact under many concurrent writers, in a bounded number of runs each", async () => {
        // Eight shards, eight writers on each, all at once; a reader sums the shards.
        const shards = 8, writers = 64;
        const runs = await Promise.all(Array.from({ length: writers }, async (_, i) => {
          let times = 0;
          await run(async (tx) => {
            times++;
            const id = `shard${i % shards}`;
            const row = (await tx.get(Accounts, id)) ?? account(id, "counter", 0);
            await pause();
            await tx.put(Accounts, { ...row, balance: row.balance + 1 });
          });
          return times;
        }));
        const parts = await query(Accounts, "byOwner", { equals: ["counter"] });
        expect(parts).toHaveLength(shards);
        expect(parts.reduce((sum, row) => sum + row.balance, 0)).toBe(writers);
        expect(Math.max(...runs)).toBeLessThanOrEqual(MAX_RUNS_UNDER_CONTENTION);
      });

      it("should run reads just before a transaction (transactAfterReads, optional: the helper falls back to two transactions) and hand them to it", async () => {
        await putAll(Accounts, [account("x", "sum", 2), account("y", "sum", 3)]);
        const seen = await transactAfterReads(storage, (tx) => Promise.all([tx.get(Accounts, "x"), tx.get(Accounts, "y")]), async (tx, read) => {
          const [x, y] = await read;
          await tx.put(Accounts, account("total", "sum", x!.balance + y!.balance));
          return [x!.balance, y!.balance];
        });
        expect(seen).toEqual([2, 3]);
        expect((await run((tx) => tx.get(Accounts, "total")))?.balance).toBe(5);
        // A failing function keeps nothing, and its error is what the caller sees.
        await expect(transactAfterReads(storage, (tx) => tx.get(Accounts, "x"), async (tx) => {
          await tx.put(Accounts, account("total", "sum", 0));
          throw new Error("refused");
        })).rejects.toThrow("refused");
        expect((await run((tx) => tx.get(Accounts, "total")))?.balance).toBe(5);
      });

      it("should let many writers each read every shard before their transaction and count in their own, none failing, in a bounded number of runs", async () => {
        // What the reads before read takes no part in the transaction: writers of the other shards do not conflict with it.
        const shards = 8, writers = 32;
        const runs = await Promise.all(Array.from({ length: writers }, async (_, i) => {
          let times = 0;
          await transactAfterReads(storage, (tx) => tx.query(Accounts, "byOwner", { equals: ["counter"] }), async (tx, read) => {
            times++;
            const id = `shard${i % shards}`;
            const [row, all] = await Promise.all([tx.get(Accounts, id), read]);
            expect(all.every((part) => part.owner === "counter")).toBe(true);
            await pause();
            await tx.put(Accounts, { ...(row ?? account(id, "counter", 0)), balance: (row?.balance ?? 0) + 1 });
          });
          return times;
        }));
        const parts = await query(Accounts, "byOwner", { equals: ["counter"] });
        expect(parts.reduce((sum, row) => sum + row.balance, 0)).toBe(writers);
        expect(Math.max(...runs)).toBeLessThanOrEqual(MAX_RUNS_UNDER_CONTENTION);
      });

      it("should read in a read-only transaction, and refuse put and delete there, keeping nothing", async () => {
        await putAll(Accounts, [account("a1", "ann", 1)]);
        const seen = await storage.transact(async (tx) => {
          await expect(tx.put(Accounts, account("a2", "bob", 2))).rejects.toBeInstanceOf(TypeError);
          await expect(tx.delete(Accounts, "a1")).rejects.toBeInstanceOf(TypeError);
          return {
            a1: await tx.get(Accounts, "a1"),
            many: await tx.getMany(Accounts, ["a1", "a2"]),
            all: ids(await tx.query(Accounts, PRIMARY)),
            n: await tx.count(Accounts, PRIMARY),
          };
        }, { readOnly: true });
        expect(seen).toEqual({ a1: account("a1", "ann", 1), many: [account("a1", "ann", 1), undefined], all: ["a1"], n: 1 });
        expect(ids(await query(Accounts, PRIMARY))).toEqual(["a1"]);
      });

      it("should give the exact total for 100 concurrent read-modify-write increments", async () => {
        await putAll(Accounts, [account("counter", "sys", 0)]);
        await Promise.all(Array.from({ length: 100 }, () => run(async (tx) => {
          const row = await tx.get(Accounts, "counter");
          await pause();
          await tx.put(Accounts, { ...row!, balance: row!.balance + 1 });
        })));
        expect((await run((tx) => tx.get(Accounts, "counter")))?.balance).toBe(100);
      });

      it("should not let concurrent check-then-insert transactions exceed a limit (no write skew)", async () => {
        const capacity = 5;
        const joined = await Promise.all(Array.from({ length: 20 }, (_, i) => run(async (tx) => {
          const members = await tx.count(Members, "byRoom", { equals: ["r1"] });
          await pause();
          if (members >= capacity) return false;
          await tx.put(Members, { id: `m${i}`, room: "r1" });
          return true;
        })));
        expect(joined.filter(Boolean)).toHaveLength(capacity);
        expect(await count(Members, "byRoom", { equals: ["r1"] })).toBe(capacity);
      });

      it("should keep money constant under concurrent transfers in any interleaving", async () => {
        const names = ["a0", "a1", "a2", "a3"];
        await fc.assert(fc.asyncProperty(fc.array(transfer(names), { minLength: 1, maxLength: 16 }), async (transfers) => {
          await storage.clear();
          await putAll(Accounts, names.map((id) => account(id, "bank", 100)));
          const applied = await Promise.all(transfers.map((t) => run(async (tx) => {
            const from = await tx.get(Accounts, t.from);
            await pause(t.pauses);
            const to = await tx.get(Accounts, t.to);
            if (!from || !to || from.balance < t.amount) return false;
            await tx.put(Accounts, { ...from, balance: from.balance - t.amount });
            // Re-read: `to` may be `from` when a transfer goes to the same account.
            const target = (await tx.get(Accounts, t.to))!;
            await tx.put(Accounts, { ...target, balance: target.balance + t.amount });
            return true;
          })));
          const expected = new Map(names.map((id) => [id, 100]));
          transfers.forEach((t, i) => {
            if (!applied[i]) return;
            expected.set(t.from, expected.get(t.from)! - t.amount);
            expected.set(t.to, expected.get(t.to)! + t.amount);
          });
          const rows = await query(Accounts, "byOwner", { equals: ["bank"] });
          expect(rows.reduce((sum, row) => sum + row.balance, 0)).toBe(400);
          expect(rows.every((row) => row.balance >= 0)).toBe(true);
          expect(new Map(rows.map((row) => [row.id, row.balance]))).toEqual(expected);
        }), { numRuns });
      });
    });

    describe("tables declared cachedReads", () => {
      const readOnly = (id: string) => storage.transact((tx) => tx.get(Devices, id), { readOnly: true });

      it("should answer a read-only transaction with every write committed before it: put, overwrite, delete", async () => {
        await putAll(Devices, [account("d1", "ann", 1)]);
        expect(await readOnly("d1")).toEqual(account("d1", "ann", 1));
        expect(await readOnly("d1")).toEqual(account("d1", "ann", 1));
        await putAll(Devices, [account("d1", "ann", 2)]);
        expect(await readOnly("d1")).toEqual(account("d1", "ann", 2));
        await run((tx) => tx.delete(Devices, "d1"));
        expect(await readOnly("d1")).toBeUndefined();
        await putAll(Devices, [account("d1", "bob", 3)]);
        expect(await readOnly("d1")).toEqual(account("d1", "bob", 3));
      });

      it("should never answer with a write that rolled back, in a read-only or a writing transaction", async () => {
        await putAll(Devices, [account("d2", "ann", 1)]);
        await readOnly("d2");
        await expect(run(async (tx) => {
          await tx.put(Devices, account("d2", "ann", 99));
          throw new Error("changed my mind");
        })).rejects.toThrow("changed my mind");
        expect(await readOnly("d2")).toEqual(account("d2", "ann", 1));
        expect(await run((tx) => tx.get(Devices, "d2"))).toEqual(account("d2", "ann", 1));
      });

      it("should answer what clear and restore left, not what was read before them", async () => {
        await putAll(Devices, [account("d3", "ann", 1)]);
        await readOnly("d3");
        if (storage.snapshot && storage.restore) {
          const before = await storage.snapshot();
          await putAll(Devices, [account("d3", "ann", 2)]);
          expect(await readOnly("d3")).toEqual(account("d3", "ann", 2));
          await storage.restore(before);
          expect(await readOnly("d3")).toEqual(account("d3", "ann", 1));
        }
        await storage.clear();
        expect(await readOnly("d3")).toBeUndefined();
      });
    });

    describe("tables declared checkedCopies", () => {
      const debit = (id: string, amount: number) => run(async (tx) => {
        const wallet = await tx.get(Wallets, id);
        if (!wallet || wallet.balance < amount) throw new Error("insufficient");
        await tx.put(Wallets, { ...wallet, balance: wallet.balance - amount });
        return wallet.balance - amount;
      });

      it("should answer a writing transaction's get with every write committed before it: put, overwrite, delete", async () => {
        await putAll(Wallets, [account("w1", "ann", 10)]);
        expect(await debit("w1", 1)).toBe(9);
        expect(await debit("w1", 1)).toBe(8);
        await putAll(Wallets, [account("w1", "ann", 100)]);
        expect(await debit("w1", 1)).toBe(99);
        await run((tx) => tx.delete(Wallets, "w1"));
        await expect(debit("w1", 1)).rejects.toThrow("insufficient");
        await putAll(Wallets, [account("w1", "bob", 5)]);
        expect(await debit("w1", 5)).toBe(0);
        expect(await run((tx) => tx.getMany(Wallets, ["w1", "nobody"]))).toEqual([account("w1", "bob", 0), undefined]);
      });

      it("should never answer with a write that rolled back", async () => {
        await putAll(Wallets, [account("w2", "ann", 10)]);
        await debit("w2", 1);
        await expect(run(async (tx) => {
          await tx.put(Wallets, account("w2", "ann", 1_000));
          throw new Error("changed my mind");
        })).rejects.toThrow("changed my mind");
        expect(await debit("w2", 1)).toBe(8);
      });

      it("should lose no debit and overdraw nothing under concurrent writers", async () => {
        await putAll(Wallets, [account("w3", "ann", 30)]);
        await debit("w3", 1);
        const outcomes = await Promise.allSettled(Array.from({ length: 40 }, () => debit("w3", 1)));
        expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(29);
        expect(await run((tx) => tx.get(Wallets, "w3"))).toEqual(account("w3", "ann", 0));
      });
    });

    describe("Tx.getCached", () => {
      const cached = (id: string, options?: { readOnly?: boolean }) => storage.transact((tx) => tx.getCached(Devices, id), options);

      it("should answer every write committed before it, in a writing and a read-only transaction: put, overwrite, delete", async () => {
        for (const readOnly of [false, true]) {
          await putAll(Devices, [account("g1", "ann", 1)]);
          expect(await cached("g1", { readOnly })).toEqual(account("g1", "ann", 1));
          expect(await cached("g1", { readOnly })).toEqual(account("g1", "ann", 1));
          await putAll(Devices, [account("g1", "ann", 2)]);
          expect(await cached("g1", { readOnly })).toEqual(account("g1", "ann", 2));
          await run((tx) => tx.delete(Devices, "g1"));
          expect(await cached("g1", { readOnly })).toBeUndefined();
        }
        // A table not declared cachedReads: as get.
        await putAll(Accounts, [account("g2", "bob", 1)]);
        expect(await run((tx) => tx.getCached(Accounts, "g2"))).toEqual(account("g2", "bob", 1));
        expect(await run((tx) => tx.getCached(Accounts, "nobody"))).toBeUndefined();
      });

      it("should see the transaction's own writes and deletes", async () => {
        await putAll(Devices, [account("g3", "ann", 1), account("g4", "bob", 1)]);
        await cached("g3");
        await cached("g4");
        expect(await run(async (tx) => {
          await tx.put(Devices, account("g3", "ann", 2));
          await tx.delete(Devices, "g4");
          await tx.put(Devices, account("g5", "cat", 1));
          return Promise.all([tx.getCached(Devices, "g3"), tx.getCached(Devices, "g4"), tx.getCached(Devices, "g5")]);
        })).toEqual([account("g3", "ann", 2), undefined, account("g5", "cat", 1)]);
      });

      it("should never answer a write that rolled back", async () => {
        await putAll(Devices, [account("g6", "ann", 1)]);
        await cached("g6");
        await expect(run(async (tx) => {
          await tx.put(Devices, account("g6", "ann", 99));
          await tx.delete(Devices, "g6");
          await tx.getCached(Devices, "g6");
          throw new Error("changed my mind");
        })).rejects.toThrow("changed my mind");
        expect(await cached("g6")).toEqual(account("g6", "ann", 1));
        expect(await cached("g6", { readOnly: true })).toEqual(account("g6", "ann", 1));
      });

      it("should answer a missing row as the transaction reads it: concurrent transactions that create it when missing create it once", async () => {
        // Known missing first (an adapter may keep a copy of that): a writing transaction reads it all the same.
        expect(await cached("once", { readOnly: true })).toBeUndefined();
        expect(await cached("once")).toBeUndefined();
        await Promise.all(Array.from({ length: 8 }, (_, i) => run(async (tx) => {
          if (await tx.getCached(Devices, "once")) return;
          await pause();
          await tx.put(Devices, account("once", `creator${i}`, 1));
          await tx.put(Members, { id: `creator${i}`, room: "once" });
        })));
        const creators = await query(Members, "byRoom", { equals: ["once"] });
        expect(creators).toHaveLength(1);
        expect((await cached("once"))?.owner).toBe(creators[0]!.id);
      });
    });

    describe("Storage.snapshot and Storage.restore (optional)", () => {
      /** Everything the tests below compare: every index of every table they write, in order. */
      const world = () => run(async (tx) => ({
        players: ids(await tx.query(Players, PRIMARY)),
        byScore: (await tx.query(Players, "byScore")).map((p) => `${p.id}:${p.score}:${p.note}`),
        byName: ids(await tx.query(Players, "byName")),
        scores: ids(await tx.query(Scores, "byScore", { order: "desc" })),
        members: ids(await tx.query(Members, PRIMARY)),
      }));

      it("should offer both or neither", () => {
        expect(typeof storage.snapshot).toBe(typeof storage.restore);
      });

      it("should put back exactly the rows and index order of the snapshot, any number of times", async () => {
        if (!storage.snapshot || !storage.restore) return;
        await putAll(Players, [player("a", 3), player("b", 1), player("c", 2)]);
        await putAll(Scores, [score("s1", 10), score("s2", 30)]);
        const saved = await storage.snapshot();
        const before = await world();
        for (let round = 0; round < 2; round++) {
          await run(async (tx) => {
            await tx.put(Players, player("a", 9, round + 1));
            await tx.put(Players, player("d", 0));
            await tx.delete(Players, "b");
            await tx.delete(Scores, "s2");
            await tx.put(Members, { id: "m", room: "r" });
          });
          expect(await world()).not.toEqual(before);
          await storage.restore(saved);
          expect(await world()).toEqual(before);
        }
      });

      it("should leave unique indexes and counts working after a restore", async () => {
        if (!storage.snapshot || !storage.restore) return;
        await putAll(Players, [player("a", 3), player("b", 1)]);
        const saved = await storage.snapshot();
        await putAll(Players, [player("c", 5)]);
        await storage.restore(saved);
        await expect(run((tx) => tx.put(Players, { ...player("z", 0), name: "name-a" }))).rejects.toBeInstanceOf(UniqueViolation);
        await putAll(Players, [player("c", 5)]);
        expect(await count(Players, "byScore", { equals: ["b"] })).toBe(3);
      });
    });

    describe("UniqueViolation", () => {
      it("should be thrown by a put whose unique key another row holds, and keep nothing of that transaction", async () => {
        await putAll(Accounts, [account("a1", "ann", 1, "same@x")]);
        const failure = run(async (tx) => {
          await tx.put(Accounts, account("a0", "zed", 5));
          await tx.put(Accounts, account("a2", "bob", 2, "same@x"));
        });
        await expect(failure).rejects.toBeInstanceOf(UniqueViolation);
        await expect(failure).rejects.toMatchObject({ table: Accounts.name, index: "byEmail", key: ["same@x"] });
        expect(await run((tx) => tx.get(Accounts, "a0"))).toBeUndefined();
        expect(ids(await query(Accounts, "byOwner"))).toEqual(["a1"]);
      });

      it("should see the transaction's own writes", async () => {
        await expect(run(async (tx) => {
          await tx.put(Accounts, account("a1", "ann", 1, "k@x"));
          await tx.put(Accounts, account("a2", "bob", 2, "k@x"));
        })).rejects.toBeInstanceOf(UniqueViolation);
        expect(await count(Accounts, "byOwner")).toBe(0);
      });

      it("should let a row keep its own key, and free a key its holder gave up or was deleted with", async () => {
        await putAll(Accounts, [account("a1", "ann", 1, "k@x"), account("a2", "bob", 2, "j@x")]);
        await putAll(Accounts, [account("a1", "ann", 5, "k@x")]);
        await run(async (tx) => {
          await tx.put(Accounts, account("a1", "ann", 5, "other@x"));
          await tx.put(Accounts, account("a3", "cat", 3, "k@x"));
          await tx.delete(Accounts, "a2");
          await tx.put(Accounts, account("a4", "dan", 4, "j@x"));
        });
        expect(ids(await query(Accounts, "byEmail"))).toEqual(["a4", "a3", "a1"]);
      });

      it("should let two rows swap unique keys in one transaction through a free key, and refuse the straight swap", async () => {
        await putAll(Accounts, [account("a1", "ann", 1, "k@x"), account("a2", "bob", 2, "j@x")]);
        await run(async (tx) => {
          await expect(tx.put(Accounts, account("a1", "ann", 1, "j@x"))).rejects.toMatchObject({ index: "byEmail", key: ["j@x"] });
          await tx.put(Accounts, account("a1", "ann", 1, "spare@x"));
          await tx.put(Accounts, account("a2", "bob", 2, "k@x"));
          await tx.put(Accounts, account("a1", "ann", 1, "j@x"));
        });
        expect(await query(Accounts, "byEmail")).toEqual([account("a1", "ann", 1, "j@x"), account("a2", "bob", 2, "k@x")]);
        expect(await count(Accounts, "byEmail", { equals: ["spare@x"] })).toBe(0);
        await expect(putAll(Accounts, [account("a3", "cat", 3, "k@x")])).rejects.toBeInstanceOf(UniqueViolation);
      });

      it("should not apply to rows left out of the index", async () => {
        await putAll(Accounts, [account("a1", "ann", 1), account("a2", "bob", 2)]);
        expect(await count(Accounts, "byOwner")).toBe(2);
      });
    });

    describe("Tx.query", () => {
      const board = [score("s1", 30), score("s2", 10), score("s3", 20), score("s4", 20), score("s5", 40), score("o1", 25, "other")];

      it("should answer rows in index-key order, ties by primary key, and the reverse for desc", async () => {
        await putAll(Scores, board);
        expect(ids(await query(Scores, "byScore", { equals: ["b"] }))).toEqual(["s2", "s3", "s4", "s1", "s5"]);
        expect(ids(await query(Scores, "byScore", { equals: ["b"], order: "desc" }))).toEqual(["s5", "s1", "s4", "s3", "s2"]);
        expect(ids(await query(Scores, "byScore"))).toEqual(["s2", "s3", "s4", "s1", "s5", "o1"]);
      });

      it("should sort numbers before strings and a key before its extensions", async () => {
        await putAll(Items, [
          { id: "i1", group: "a", n: 1, tag: null },
          { id: "i2", group: 10, n: 0, tag: null },
          { id: "i3", group: 9, n: 5, tag: null },
          { id: "i4", group: "B", n: 0, tag: null },
        ]);
        expect(ids(await query(Items, "byGroup"))).toEqual(["i3", "i2", "i4", "i1"]);
      });

      it("should match the equals prefix exactly, on one or more leading elements", async () => {
        await putAll(Scores, board);
        expect(ids(await query(Scores, "byScore", { equals: ["other"] }))).toEqual(["o1"]);
        expect(ids(await query(Scores, "byScore", { equals: ["b", 20] }))).toEqual(["s3", "s4"]);
        expect(await query(Scores, "byScore", { equals: ["b", 21] })).toEqual([]);
        expect(await query(Scores, "byScore", { equals: ["c"] })).toEqual([]);
      });

      it("should bound the element after the equals prefix with gt, gte, lt and lte", async () => {
        await putAll(Scores, board);
        const within = (range: KeyRange) => query(Scores, "byScore", { equals: ["b"], range }).then(ids);
        expect(await within({ gt: 20 })).toEqual(["s1", "s5"]);
        expect(await within({ gte: 20 })).toEqual(["s3", "s4", "s1", "s5"]);
        expect(await within({ lt: 20 })).toEqual(["s2"]);
        expect(await within({ lte: 20 })).toEqual(["s2", "s3", "s4"]);
        expect(await within({ gt: 10, lt: 40 })).toEqual(["s3", "s4", "s1"]);
        expect(await within({ gte: 10, lte: 40 })).toEqual(["s2", "s3", "s4", "s1", "s5"]);
        expect(await within({ gt: 30, lt: 30 })).toEqual([]);
        expect(await query(Scores, "byScore", { range: { gte: "b", lt: "c" } }).then(ids)).toEqual(["s2", "s3", "s4", "s1", "s5"]);
      });

      it("should skip offset rows and stop at limit, in either order", async () => {
        await putAll(Scores, board);
        const page = (q: Query) => query(Scores, "byScore", { equals: ["b"], ...q }).then(ids);
        expect(await page({ limit: 2 })).toEqual(["s2", "s3"]);
        expect(await page({ offset: 2, limit: 2 })).toEqual(["s4", "s1"]);
        expect(await page({ offset: 4, limit: 2 })).toEqual(["s5"]);
        expect(await page({ offset: 9 })).toEqual([]);
        expect(await page({ limit: 0 })).toEqual([]);
        expect(await page({ order: "desc", offset: 1, limit: 3 })).toEqual(["s1", "s4", "s3"]);
        expect(await page({ range: { gte: 20 }, order: "desc", offset: 3 })).toEqual(["s3"]);
      });

      it("should continue after a cursor, exclusive, in either order and with bounds", async () => {
        await putAll(Scores, board);
        const s3 = cursorOf(Scores, "byScore", score("s3", 20));
        const page = (q: Query) => query(Scores, "byScore", { equals: ["b"], ...q }).then(ids);
        expect(await page({ after: s3 })).toEqual(["s4", "s1", "s5"]);
        expect(await page({ after: s3, order: "desc" })).toEqual(["s2"]);
        expect(await page({ after: s3, limit: 1, offset: 1 })).toEqual(["s1"]);
        expect(await page({ after: s3, range: { lt: 40 } })).toEqual(["s4", "s1"]);
        // The cursor's row need not exist any more: position is by key and id.
        expect(await page({ after: { key: ["b", 25], id: "zz" } })).toEqual(["s1", "s5"]);
      });

      it("should page through a whole index with cursors, never skipping or repeating", async () => {
        const rows = Array.from({ length: 23 }, (_, i) => score(`s${String(i).padStart(2, "0")}`, i % 4));
        await putAll(Scores, rows);
        for (const order of ["asc", "desc"] as const) {
          const seen: string[] = [];
          let after: Cursor | undefined;
          for (let pages = 0; ; pages++) {
            // Guard against an adapter whose cursor does not move.
            expect(pages).toBeLessThanOrEqual(rows.length);
            const page = await query(Scores, "byScore", { equals: ["b"], order, limit: 5, after });
            if (page.length === 0) break;
            seen.push(...ids(page));
            after = cursorOf(Scores, "byScore", page.at(-1)!);
          }
          const sorted = [...rows].sort((a, b) => a.score - b.score || (a.id < b.id ? -1 : 1));
          expect(seen).toEqual(ids(order === "asc" ? sorted : sorted.reverse()));
        }
      });

      it("should never skip or repeat a row when rows are inserted and deleted between cursor pages", async () => {
        await fc.assert(fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 0, max: 59 }), { maxLength: 30 }),
          fc.integer({ min: 1, max: 5 }),
          fc.constantFrom("asc" as const, "desc" as const),
          fc.array(fc.array(mutation(), { maxLength: 4 }), { maxLength: 30 }),
          async (initial, limit, order, batches) => {
            await storage.clear();
            const scoreOf = (n: number) => score(`r${String(n).padStart(2, "0")}`, n % 7);
            await putAll(Scores, initial.map(scoreOf));
            // Each id has one fixed position, so "ahead of the cursor" is known when a row is written.
            const mustSee = new Set(initial.map((n) => scoreOf(n).id));
            const sign = order === "asc" ? 1 : -1;
            const seen: Score[] = [];
            let after: Cursor | undefined;
            for (let i = 0; ; i++) {
              // 60 ids at most: a cursor that moves forward runs out of rows by then.
              expect(i).toBeLessThanOrEqual(60);
              const page = await query(Scores, "byScore", { equals: ["b"], order, limit, after });
              if (page.length === 0) break;
              seen.push(...page);
              after = cursorOf(Scores, "byScore", page.at(-1)!);
              for (const m of batches[i] ?? []) {
                const row = scoreOf(m.n);
                if (m.insert) {
                  await putAll(Scores, [row]);
                  const ahead = compareCursor(cursorOf(Scores, "byScore", row), after) * sign > 0;
                  if (ahead) mustSee.add(row.id);
                } else {
                  await run((tx) => tx.delete(Scores, row.id));
                  mustSee.delete(row.id);
                }
              }
            }
            const positions = seen.map((row) => cursorOf(Scores, "byScore", row));
            for (let k = 1; k < positions.length; k++) {
              expect(compareCursor(positions[k - 1]!, positions[k]!) * sign).toBeLessThan(0);
            }
            const seenIds = new Set(ids(seen));
            expect([...mustSee].filter((id) => !seenIds.has(id))).toEqual([]);
          },
        ), { numRuns });
      });

      it("should page past overwrites made between pages: rows left in place show their new version, moved rows show where they now are", async () => {
        await fc.assert(fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 0, max: 29 }), { maxLength: 20 }),
          fc.integer({ min: 1, max: 4 }),
          fc.constantFrom("asc" as const, "desc" as const),
          fc.array(fc.array(overwrite(), { maxLength: 3 }), { maxLength: 30 }),
          async (initial, limit, order, batches) => {
            await storage.clear();
            const current = new Map(initial.map((n) => {
              const row = player(`r${String(n).padStart(2, "0")}`, n % 5);
              return [row.id, row] as const;
            }));
            await putAll(Players, [...current.values()]);
            // Rows that must still show up: those ahead of the cursor when last written.
            const pending = new Set(current.keys());
            const sign = order === "asc" ? 1 : -1;
            const positions: Cursor[] = [];
            let after: Cursor | undefined;
            for (let i = 0; ; i++) {
              // Each page moves the cursor on; writes stop after the last batch, and 30 ids run out.
              expect(i).toBeLessThanOrEqual(batches.length + 30);
              const page = await query(Players, "byScore", { equals: ["b"], order, limit, after });
              if (page.length === 0) break;
              for (const row of page) {
                expect(row).toEqual(current.get(row.id));
                pending.delete(row.id);
                positions.push(cursorOf(Players, "byScore", row));
              }
              after = positions.at(-1)!;
              for (const m of batches[i] ?? []) {
                const old = [...current.values()][m.pick % Math.max(1, current.size)];
                if (!old) continue;
                const next = m.score === null ? { ...old, note: old.note + 1 } : { ...old, score: m.score };
                await putAll(Players, [next]);
                current.set(next.id, next);
                if (compareCursor(cursorOf(Players, "byScore", next), after) * sign > 0) pending.add(next.id);
                else pending.delete(next.id);
              }
            }
            for (let k = 1; k < positions.length; k++) {
              expect(compareCursor(positions[k - 1]!, positions[k]!) * sign).toBeLessThan(0);
            }
            expect([...pending]).toEqual([]);
          },
        ), { numRuns });
      });

      it("should query by primary key with the index name \"primary\"", async () => {
        await putAll(Scores, board);
        expect(ids(await query(Scores, PRIMARY))).toEqual(["o1", "s1", "s2", "s3", "s4", "s5"]);
        expect(ids(await query(Scores, PRIMARY, { range: { gte: "s2", lt: "s5" } }))).toEqual(["s2", "s3", "s4"]);
        expect(ids(await query(Scores, PRIMARY, { equals: ["s4"] }))).toEqual(["s4"]);
        expect(ids(await query(Scores, PRIMARY, { order: "desc", after: { key: ["s3"], id: "s3" }, limit: 2 }))).toEqual(["s2", "s1"]);
        expect(await count(Scores, PRIMARY)).toBe(6);
      });

      it("should reject a query on an index the table does not declare", async () => {
        await expect(query(Scores, "byNothing")).rejects.toThrow();
      });
    });

    describe("Tx.count", () => {
      it("should count the rows matching equals and range", async () => {
        await putAll(Scores, [score("s1", 30), score("s2", 10), score("s3", 20), score("s4", 20), score("o1", 25, "other")]);
        expect(await count(Scores, "byScore")).toBe(5);
        expect(await count(Scores, "byScore", { equals: ["b"] })).toBe(4);
        expect(await count(Scores, "byScore", { equals: ["b", 20] })).toBe(2);
        expect(await count(Scores, "byScore", { equals: ["b"], range: { gt: 20 } })).toBe(1);
        expect(await count(Scores, "byScore", { equals: ["b"], range: { gt: 30, lt: 10 } })).toBe(0);
        expect(await count(Scores, "byScore", { equals: ["nope"] })).toBe(0);
      });

      it("should stop at the cap: min(matches, cap)", async () => {
        await putAll(Scores, Array.from({ length: 12 }, (_, i) => score(`s${String(i).padStart(2, "0")}`, i)));
        expect(await count(Scores, "byScore", { equals: ["b"], cap: 5 })).toBe(5);
        expect(await count(Scores, "byScore", { equals: ["b"], cap: 12 })).toBe(12);
        expect(await count(Scores, "byScore", { equals: ["b"], cap: 100 })).toBe(12);
        expect(await count(Scores, "byScore", { equals: ["b"], range: { gte: 9 }, cap: 10 })).toBe(3);
        expect(await count(Scores, "byScore", { cap: 0 })).toBe(0);
        expect(await count(Scores, PRIMARY, { cap: 4 })).toBe(4);
        await expect(count(Scores, "byScore", { cap: -1 })).rejects.toBeInstanceOf(RangeError);
      });

      it("should give a rank: how many rows score higher", async () => {
        const rows = Array.from({ length: 50 }, (_, i) => score(`s${i}`, (i * 37) % 101));
        await putAll(Scores, rows);
        for (const row of rows.slice(0, 10)) {
          const higher = await count(Scores, "byScore", { equals: ["b"], range: { gt: row.score } });
          expect(higher).toBe(rows.filter((other) => other.score > row.score).length);
        }
      });
    });

    describe("counted indexes", () => {
      /** What a query on Ranks.byScore must answer: the rows of `board`, by score then id. */
      const model = (rows: Iterable<Rank>, board: string) => [...rows].filter((row) => row.board === board).sort((a, b) => a.score - b.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

      it("should count and page like any index across a thousand rows, after inserts, moves and deletes", async () => {
        // A thousand rows: many buckets' worth for an adapter that keeps counts of key ranges (its tests may make buckets small).
        const rows = new Map<string, Rank>();
        // Scores scattered by multiplying by primes: ties, and no order shared with the ids.
        const add = (row: Rank) => rows.set(row.id, row);
        for (let i = 0; i < 1_100; i++) add({ id: `r${String(i).padStart(4, "0")}`, board: i % 10 === 0 ? "other" : "b", score: (i * 7_919) % 500 });
        await putAll(Ranks, [...rows.values()]);
        // Moves (a new score), a few new rows, and deletes, in one transaction.
        const moved = [...rows.values()].filter((_, i) => i % 7 === 0).map((row, i) => ({ ...row, score: (i * 104_729 + 7) % 500 }));
        const gone = [...rows.keys()].filter((_, i) => i % 11 === 3);
        await run(async (tx) => {
          for (const row of moved) await tx.put(Ranks, row);
          for (const id of gone) await tx.delete(Ranks, id);
        });
        for (const row of moved) add(row);
        for (const id of gone) rows.delete(id);
        const b = model(rows.values(), "b");

        expect(await count(Ranks, "byScore", { equals: ["b"] })).toBe(b.length);
        expect(await count(Ranks, "byScore")).toBe(rows.size);
        for (const [gte, lt] of [[0, 250], [100, 101], [123, 456], [499, 600]] as const) {
          expect(await count(Ranks, "byScore", { equals: ["b"], range: { gte, lt } })).toBe(b.filter((row) => row.score >= gte && row.score < lt).length);
        }
        expect(await count(Ranks, "byScore", { equals: ["b"], cap: 700 })).toBe(Math.min(700, b.length));
        expect(await count(Ranks, "byId", { equals: ["b"], range: { gt: "r0500" } })).toBe(b.filter((row) => row.id > "r0500").length);
        for (const offset of [0, 1, 63, 64, 200, 511, 512, b.length - 3, b.length, b.length + 5]) {
          expect(ids(await query(Ranks, "byScore", { equals: ["b"], offset, limit: 5 }))).toEqual(ids(b.slice(offset, offset + 5)));
          expect(ids(await query(Ranks, "byScore", { equals: ["b"], order: "desc", offset, limit: 5 }))).toEqual(ids([...b].reverse().slice(offset, offset + 5)));
        }
        const above = b.filter((row) => row.score >= 200);
        expect(ids(await query(Ranks, "byScore", { equals: ["b"], range: { gte: 200 }, offset: 400, limit: 3 }))).toEqual(ids(above.slice(400, 403)));
        expect(ids(await query(Ranks, "byScore", { equals: ["b"], range: { lt: 300 }, order: "desc", offset: 450, limit: 3 }))).toEqual(ids(b.filter((row) => row.score < 300).reverse().slice(450, 453)));
      });

      it("should keep counts with the transaction: a failed transaction's writes are not counted, its own writes are", async () => {
        await putAll(Ranks, Array.from({ length: 40 }, (_, i) => ({ id: `r${i}`, board: "b", score: i })));
        await expect(run(async (tx) => {
          for (let i = 40; i < 60; i++) await tx.put(Ranks, { id: `r${i}`, board: "b", score: i });
          await tx.delete(Ranks, "r0");
          expect(await tx.count(Ranks, "byScore", { equals: ["b"] })).toBe(59);
          throw new Error("boom");
        })).rejects.toThrow("boom");
        expect(await count(Ranks, "byScore", { equals: ["b"] })).toBe(40);
        expect(ids(await query(Ranks, "byScore", { equals: ["b"], order: "desc", offset: 35 }))).toEqual(["r4", "r3", "r2", "r1", "r0"]);
      });

      it("should stay exact under 16 concurrent writers of one board, each finishing in a bounded number of runs", async () => {
        await putAll(Ranks, Array.from({ length: 200 }, (_, i) => ({ id: `r${String(i).padStart(3, "0")}`, board: "b", score: i })));
        // Each writer adds to scores (moving rows) and inserts rows of its own, like IncrementOrdered on one leaderboard.
        const runs = await Promise.all(Array.from({ length: 16 }, async (_, w) => {
          let most = 0;
          for (let step = 0; step < 8; step++) {
            let times = 0;
            await run(async (tx) => {
              times++;
              const id = step % 2 === 0 ? `w${w}-${step}` : `r${String((w * 13 + step * 7) % 200).padStart(3, "0")}`;
              const row = await tx.get(Ranks, id);
              await pause();
              await tx.put(Ranks, { id, board: "b", score: (row?.score ?? 0) + 50 + w });
            });
            most = Math.max(most, times);
          }
          return most;
        }));
        const rows = await query(Ranks, "byScore", { equals: ["b"] });
        expect(rows).toHaveLength(200 + 16 * 4);
        expect(await count(Ranks, "byScore", { equals: ["b"] })).toBe(rows.length);
        expect(await count(Ranks, "byScore", { equals: ["b"], range: { gte: 100 } })).toBe(rows.filter((row) => row.score >= 100).length);
        expect(ids(await query(Ranks, "byScore", { equals: ["b"], order: "desc", offset: 150, limit: 10 }))).toEqual(ids([...rows].reverse().slice(150, 160)));
        expect(Math.max(...runs)).toBeLessThanOrEqual(MAX_RUNS_UNDER_CONTENTION);
      });
    });

    describe("Storage.init", () => {
      it("should set up the tables named, any number of times, and leave them usable", async () => {
        await storage.init([Accounts, Scores, Items, Players, Members, Ranks]);
        await storage.init([Accounts]);
        await putAll(Items, [{ id: "i1", group: "a", n: 1, tag: "t" }]);
        expect(ids(await query(Items, "byTag", { equals: ["t"] }))).toEqual(["i1"]);
        expect(await count(Players, "byScore")).toBe(0);
      });
    });

    describe("Storage.clear", () => {
      it("should drop every row of every table and index, and leave the storage usable", async () => {
        await putAll(Accounts, [account("a1", "ann", 1, "a@x")]);
        await putAll(Scores, [score("s1", 1)]);
        await storage.clear();
        expect(await run((tx) => tx.get(Accounts, "a1"))).toBeUndefined();
        expect(await count(Accounts, "byEmail")).toBe(0);
        expect(await query(Scores, "byScore")).toEqual([]);
        expect(await count(Scores, PRIMARY)).toBe(0);
        await putAll(Accounts, [account("a2", "bob", 2, "a@x")]);
        expect(ids(await query(Accounts, "byEmail"))).toEqual(["a2"]);
      });
    });

    describe("Storage (model-based)", () => {
      it("should behave like a naive model over any sequence of puts, deletes, failed transactions, queries and counts", async () => {
        await fc.assert(fc.asyncProperty(fc.commands(itemCommands(), { size: "+1" }), async (commands) => {
          await storage.clear();
          await fc.asyncModelRun(() => ({ model: { rows: new Map<string, Item>() }, real: storage }), commands);
        }), { numRuns });
      });
    });
  });
}

// ---- Cursor arithmetic, with the port's own ordering ----

function compareCursor(a: Cursor, b: Cursor): number {
  return compareKeys(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

// ---- The model of a table: a naive filter-and-sort over every row ----

interface ItemModel { rows: Map<string, Item> }

const itemIndexes = {
  byGroup: (row: Item): IndexKey | null => Items.indexes.byGroup.key(row),
  byTag: (row: Item): IndexKey | null => Items.indexes.byTag.key(row),
  [PRIMARY]: (row: Item): IndexKey | null => [row.id],
} as const;
type ItemIndex = keyof typeof itemIndexes;

function inRange(value: string | number | undefined, range: KeyRange | undefined): boolean {
  if (!range || Object.values(range).every((bound) => bound === undefined)) return true;
  if (value === undefined) return false;
  const c = (bound: string | number) => compareKeys([value], [bound]);
  return (range.gt === undefined || c(range.gt) > 0) && (range.gte === undefined || c(range.gte) >= 0)
    && (range.lt === undefined || c(range.lt) < 0) && (range.lte === undefined || c(range.lte) <= 0);
}

function modelMatches(model: ItemModel, index: ItemIndex, q: Query): Item[] {
  const equals = q.equals ?? [];
  const entries = [...model.rows.values()]
    .map((row) => ({ key: itemIndexes[index](row), id: row.id, row }))
    .filter((e): e is { key: IndexKey; id: string; row: Item } => e.key !== null)
    .filter((e) => e.key.length >= equals.length && compareKeys(e.key.slice(0, equals.length), equals) === 0)
    .filter((e) => inRange(e.key[equals.length], q.range))
    .sort(compareCursor);
  return entries.map((e) => e.row);
}

function modelQuery(model: ItemModel, index: ItemIndex, q: Query): Item[] {
  const key = (row: Item): Cursor => ({ key: itemIndexes[index](row)!, id: row.id });
  let rows = modelMatches(model, index, q);
  if (q.order === "desc") rows.reverse();
  if (q.after) {
    const sign = q.order === "desc" ? -1 : 1;
    rows = rows.filter((row) => compareCursor(key(row), q.after!) * sign > 0);
  }
  const start = q.offset ?? 0;
  return rows.slice(start, q.limit === undefined ? undefined : start + q.limit);
}

type ItemCommand = fc.AsyncCommand<ItemModel, Storage>;

class PutItem implements ItemCommand {
  constructor(readonly row: Item) {}
  check = () => true;
  async run(model: ItemModel, storage: Storage) {
    const holder = [...model.rows.values()].find((other) => other.tag !== null && other.tag === this.row.tag && other.id !== this.row.id);
    const put = storage.transact((tx) => tx.put(Items, this.row));
    if (holder) {
      await expect(put).rejects.toBeInstanceOf(UniqueViolation);
      return;
    }
    await put;
    model.rows.set(this.row.id, this.row);
  }
  toString = () => `put(${JSON.stringify(this.row)})`;
}

class DeleteItem implements ItemCommand {
  constructor(readonly id: string) {}
  check = () => true;
  async run(model: ItemModel, storage: Storage) {
    expect(await storage.transact((tx) => tx.delete(Items, this.id))).toBe(model.rows.has(this.id));
    model.rows.delete(this.id);
  }
  toString = () => `delete(${this.id})`;
}

/** Writes, checks it reads its writes, then throws: afterwards nothing may have changed. */
class FailedTransaction implements ItemCommand {
  constructor(readonly puts: Item[], readonly deletes: string[]) {}
  check = () => true;
  async run(model: ItemModel, storage: Storage) {
    const before = await storage.transact((tx) => tx.query(Items, PRIMARY));
    const boom = new Error("rolled back");
    await expect(storage.transact(async (tx) => {
      for (const row of this.puts) {
        try {
          await tx.put(Items, row);
        } catch (error) {
          if (!(error instanceof UniqueViolation)) throw error;
          // A put refused for a unique key ends this transaction early: it must roll back all the same.
          throw boom;
        }
        expect(await tx.get(Items, row.id)).toEqual(row);
      }
      for (const id of this.deletes) {
        await tx.delete(Items, id);
        expect(await tx.get(Items, id)).toBeUndefined();
        expect(await tx.count(Items, PRIMARY, { equals: [id] })).toBe(0);
      }
      throw boom;
    })).rejects.toBe(boom);
    expect(await storage.transact((tx) => tx.query(Items, PRIMARY))).toEqual(before);
    expect(before).toEqual(modelQuery(model, PRIMARY, {}));
  }
  toString = () => `failedTx(put ${this.puts.map((row) => row.id).join(",")}; delete ${this.deletes.join(",")})`;
}

class QueryItems implements ItemCommand {
  constructor(readonly index: ItemIndex, readonly q: Query) {}
  check = () => true;
  async run(model: ItemModel, storage: Storage) {
    const rows = await storage.transact((tx) => tx.query(Items, this.index, this.q));
    expect(rows).toEqual(modelQuery(model, this.index, this.q));
  }
  toString = () => `query(${this.index}, ${JSON.stringify(this.q)})`;
}

class CountItems implements ItemCommand {
  constructor(readonly index: ItemIndex, readonly q: CountQuery) {}
  check = () => true;
  async run(model: ItemModel, storage: Storage) {
    const n = await storage.transact((tx) => tx.count(Items, this.index, this.q));
    const matches = modelMatches(model, this.index, this.q).length;
    expect(n).toBe(this.q.cap === undefined ? matches : Math.min(matches, this.q.cap));
  }
  toString = () => `count(${this.index}, ${JSON.stringify(this.q)})`;
}

// ---- Arbitraries ----

function transfer(names: readonly string[]) {
  return fc.record({
    from: fc.constantFrom(...names),
    to: fc.constantFrom(...names),
    amount: fc.integer({ min: 1, max: 80 }),
    pauses: fc.integer({ min: 0, max: 2 }),
  });
}

function mutation() {
  return fc.record({ insert: fc.boolean(), n: fc.integer({ min: 0, max: 59 }) });
}

/** An overwrite of the `pick`-th row: a new score, or (null) the same keys with a new note. */
function overwrite() {
  return fc.record({ pick: fc.nat(29), score: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }) });
}

/** Few distinct values, so that ties, collisions and prefix matches are common. */
const itemId = () => fc.constantFrom("i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7");
const element = () => fc.oneof(fc.constantFrom("a", "b", "c"), fc.integer({ min: -2, max: 2 }));

function item(): fc.Arbitrary<Item> {
  return fc.record({
    id: itemId(),
    group: element(),
    n: fc.integer({ min: -3, max: 3 }),
    tag: fc.option(fc.constantFrom("t1", "t2", "t3", "t4"), { nil: null, freq: 2 }),
  });
}

function keyRange(): fc.Arbitrary<KeyRange> {
  const bound = fc.option(element(), { nil: undefined });
  return fc.record({ gt: bound, gte: bound, lt: bound, lte: bound }).map((range) =>
    Object.fromEntries(Object.entries(range).filter(([, v]) => v !== undefined)) as KeyRange);
}

function itemQuery(): fc.Arbitrary<{ index: ItemIndex; q: Query }> {
  return fc.oneof(
    fc.record({ index: fc.constant("byGroup" as const), equals: fc.option(fc.array(element(), { maxLength: 2 }), { nil: undefined }) }),
    fc.record({ index: fc.constant("byTag" as const), equals: fc.option(fc.array(fc.constantFrom("t1", "t2"), { maxLength: 1 }), { nil: undefined }) }),
    fc.record({ index: fc.constant(PRIMARY), equals: fc.option(itemId().map((id) => [id]), { nil: undefined }) }),
  ).chain(({ index, equals }) => fc.record({
    range: fc.option(keyRange(), { nil: undefined }),
    order: fc.constantFrom("asc" as const, "desc" as const),
    offset: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    limit: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    after: fc.option(fc.record({ key: fc.array(element(), { minLength: 1, maxLength: 3 }), id: itemId() }), { nil: undefined }),
  }).map((rest) => {
    const q: Query = Object.fromEntries(Object.entries({ equals, ...rest }).filter(([, v]) => v !== undefined));
    // Primary keys are strings: a cursor there is a one-element key.
    if (index === PRIMARY && q.after) q.after = { key: [q.after.id], id: q.after.id };
    return { index, q };
  }));
}

function itemCommands(): fc.Arbitrary<ItemCommand>[] {
  return [
    item().map((row) => new PutItem(row)),
    itemId().map((id) => new DeleteItem(id)),
    fc.tuple(fc.array(item(), { maxLength: 3 }), fc.array(itemId(), { maxLength: 2 })).map(([puts, deletes]) => new FailedTransaction(puts, deletes)),
    itemQuery().map(({ index, q }) => new QueryItems(index, q)),
    itemQuery().map(({ index, q }) => new CountItems(index, { equals: q.equals, range: q.range, cap: q.limit })),
  ];
}

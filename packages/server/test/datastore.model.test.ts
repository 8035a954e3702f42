import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SeededUser } from "@playfield/server-memory";
import { testServer, type TestServer } from "./fixtures.js";
import { as, seedGame, type Player, type SeededGame } from "./datastore-fixtures.js";

/*
 * Model-based tests of DatastoreService: sequences and concurrent batches of
 * calls from several players against a plain model (a Map of values and
 * versions), in process. Each run plays in a fresh experience of one server.
 */

const KEYS = ["a", "b"] as const;
const PLAYERS = 3;

/** The model: entries by "owner|key" with value and version, the version floor of deleted keys, and ordered values. */
interface Model {
  entries: Map<string, { value: string; version: number }>;
  floors: Map<string, number>;
  ordered: Map<string, number>;
}

interface Real {
  game: SeededGame;
}

type Target = { player: number; owner: number | "global"; key: string };

const slot = (m: Target) => `${m.owner}|${m.key}`;
/** Player 0 joined first: the authority, who may write anyone's data; others write their own only. */
const allowed = (m: Target) => m.player === 0 || m.owner === m.player;
const request = (real: Real, m: Target) => ({
  key: m.key,
  ...(m.owner === "global" ? { scope: "global" } : { userId: real.game.players[m.owner]!.userId }),
});
const caller = (real: Real, m: Target): Player => real.game.players[m.player]!;

function modelWrite(model: Model, m: Target, value: string): number {
  const id = slot(m);
  const version = (model.entries.get(id)?.version ?? model.floors.get(id) ?? 0) + 1;
  model.entries.set(id, { value, version });
  return version;
}

class SetCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly m: Target, readonly value: number, readonly ifVersion: number | null) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const call = real.game.client.datastore.set(
      { ...request(real, this.m), value: String(this.value), ...(this.ifVersion === null ? {} : { ifVersion: true, version: this.ifVersion }) },
      as(caller(real, this.m)),
    );
    if (!allowed(this.m)) return void (await expect(call).rejects.toMatchObject({ code: "permission_denied" }));
    const current = model.entries.get(slot(this.m));
    const answer = await call;
    if (this.ifVersion !== null && this.ifVersion !== (current?.version ?? 0)) {
      expect(answer).toEqual({ ok: false, version: current?.version ?? 0, value: current?.value ?? "" });
      return;
    }
    expect(answer).toEqual({ ok: true, version: modelWrite(model, this.m, String(this.value)), value: "" });
  }
  toString = () => `set(${JSON.stringify(this.m)}, ${this.value}, ifVersion ${this.ifVersion})`;
}

class UpdateCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly m: Target, readonly field: string, readonly value: number | null) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const call = real.game.client.datastore.update({ ...request(real, this.m), patch: JSON.stringify({ [this.field]: this.value }) }, as(caller(real, this.m)));
    if (!allowed(this.m)) return void (await expect(call).rejects.toMatchObject({ code: "permission_denied" }));
    const current = model.entries.get(slot(this.m));
    const stored: unknown = current ? JSON.parse(current.value) : {};
    if (typeof stored !== "object" || stored === null || Array.isArray(stored)) {
      return void (await expect(call).rejects.toMatchObject({ code: "failed_precondition" }));
    }
    const merged: Record<string, unknown> = { ...stored };
    if (this.value === null) delete merged[this.field];
    else merged[this.field] = this.value;
    const answer = await call;
    const version = modelWrite(model, this.m, answer.value);
    expect(JSON.parse(answer.value)).toEqual(merged);
    expect(answer.version).toBe(version);
  }
  toString = () => `update(${JSON.stringify(this.m)}, ${this.field}=${this.value})`;
}

class DeleteCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly m: Target) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const call = real.game.client.datastore.delete(request(real, this.m), as(caller(real, this.m)));
    if (!allowed(this.m)) return void (await expect(call).rejects.toMatchObject({ code: "permission_denied" }));
    const current = model.entries.get(slot(this.m));
    expect(await call).toEqual({ found: current !== undefined });
    if (current) {
      model.floors.set(slot(this.m), current.version);
      model.entries.delete(slot(this.m));
    }
  }
  toString = () => `delete(${JSON.stringify(this.m)})`;
}

class GetCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly m: Target) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const answer = await real.game.client.datastore.get(request(real, this.m), as(caller(real, this.m)));
    const current = model.entries.get(slot(this.m));
    expect({ found: answer.found, value: answer.value, version: answer.version }).toEqual(
      current ? { found: true, ...current } : { found: false, value: "", version: 0 },
    );
  }
  toString = () => `get(${JSON.stringify(this.m)})`;
}

class IncrementCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly player: number, readonly key: number | string, readonly delta: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const key = typeof this.key === "number" ? real.game.players[this.key]!.userId : this.key;
    const call = real.game.client.datastore.incrementOrdered({ key, delta: this.delta }, as(real.game.players[this.player]!));
    if (this.player !== 0 && key !== real.game.players[this.player]!.userId) {
      return void (await expect(call).rejects.toMatchObject({ code: "permission_denied" }));
    }
    const value = (model.ordered.get(key) ?? 0) + this.delta;
    model.ordered.set(key, value);
    expect(await call).toEqual({ value });
  }
  toString = () => `increment(${this.player}, ${this.key}, ${this.delta})`;
}

// Mostly the player's own data or global, so writes, deletes and rewrites of one entry follow each other often.
const target = fc.record({
  player: fc.nat(PLAYERS - 1),
  owner: fc.constantFrom("self", "global", "other"),
  key: fc.constantFrom(...KEYS),
}).map(({ player, owner, key }): Target => ({
  player, key, owner: owner === "self" ? player : owner === "global" ? "global" : (player + 1) % PLAYERS,
}));

const commands = [
  fc.tuple(target, fc.integer({ min: -5, max: 5 }), fc.option(fc.nat(4), { nil: null })).map(([m, v, ifv]) => new SetCommand(m, v, ifv)),
  fc.tuple(target, fc.constantFrom("x", "y"), fc.option(fc.nat(9), { nil: null })).map(([m, f, v]) => new UpdateCommand(m, f, v)),
  target.map((m) => new DeleteCommand(m)),
  target.map((m) => new GetCommand(m)),
  fc.tuple(fc.nat(PLAYERS - 1), fc.oneof(fc.nat(PLAYERS - 1), fc.constantFrom("npc", "team")), fc.integer({ min: -100, max: 100 }))
    .map(([p, k, d]) => new IncrementCommand(p, k, d)),
];

/** Accounts seeded once per server: every run joins them to a new session of a new experience. */
const accounts = new WeakMap<TestServer, SeededUser[]>();

async function newGame(t: TestServer, count = PLAYERS): Promise<SeededGame> {
  let users = accounts.get(t);
  if (!users) {
    users = await Promise.all(Array.from({ length: PLAYERS }, () => t.server.seed.user()));
    accounts.set(t, users);
  }
  return seedGame(t, { users: users.slice(0, count) });
}

describe("DatastoreService model", { timeout: 30_000 }, () => {
  it("should give exactly the model's values and versions for any sequence of calls from several players", async () => {
    await using t = await testServer("in-process", { datastore: { requestsPerMinute: 1e9 } });
    await fc.assert(fc.asyncProperty(fc.commands(commands, { maxCommands: 50, size: "large" }), async (cmds) => {
      const game = await newGame(t);
      const model: Model = { entries: new Map(), floors: new Map(), ordered: new Map() };
      await fc.asyncModelRun(() => ({ model, real: { game } }), cmds);
      // The ordered store as a whole equals a sort of the model: descending, equal values by key.
      const expected = [...model.ordered].map(([key, value]) => ({ key, value }))
        .sort((a, b) => b.value - a.value || (a.key < b.key ? -1 : 1)).map((e, i) => ({ ...e, rank: i + 1 }));
      const listed = await game.client.datastore.listOrdered({ limit: 100 }, as(game.players[0]!));
      expect(listed.entries).toEqual(expected);
    }), { numRuns: 25 });
  });

  it("should lose no update and reuse no version when players write the same keys at once", async () => {
    await using t = await testServer("in-process", { datastore: { requestsPerMinute: 1e9 } });
    const write = fc.record({
      player: fc.nat(PLAYERS - 1),
      key: fc.constantFrom("a", "b"),
      kind: fc.constantFrom("set", "setIf0", "update", "increment"),
      n: fc.integer({ min: 1, max: 50 }),
    });
    await fc.assert(fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 30 }), async (writes) => {
      const game = await newGame(t);
      const ds = game.client.datastore;
      const [authority, owner] = game.players;
      // Two callers write player 1's data at once: the player and the session's authority.
      const by = (w: { player: number }) => as(w.player % 2 === 0 ? authority! : owner!);
      const where = { userId: owner!.userId };
      const orderedKey = (key: string) => (key === "a" ? owner!.userId : "b");
      const answers = await Promise.all(writes.map((w, i) => {
        switch (w.kind) {
          case "set": return ds.set({ ...where, key: w.key, value: JSON.stringify({ [`set${i}`]: w.n }) }, by(w));
          case "setIf0": return ds.set({ ...where, key: w.key, value: JSON.stringify({ [`if${i}`]: w.n }), ifVersion: true, version: 0 }, by(w));
          case "update": return ds.update({ ...where, key: w.key, patch: JSON.stringify({ [`p${w.player}`]: w.n }) }, by(w));
          case "increment": return ds.incrementOrdered({ key: orderedKey(w.key), delta: w.n }, w.key === "a" ? by(w) : as(authority!));
        }
      }));
      for (const key of ["a", "b"]) {
        const versions: { version: number; index: number }[] = [];
        answers.forEach((answer, i) => {
          const w = writes[i]!;
          if (w.key !== key || w.kind === "increment") return;
          if ("ok" in answer && !answer.ok) return;
          versions.push({ version: (answer as { version: number }).version, index: i });
        });
        // Every successful write got its own version, 1..n: none reused, none lost.
        expect(versions.map((v) => v.version).sort((x, y) => x - y)).toEqual(versions.map((_, i) => i + 1));
        // At most one create-only Set wins per key.
        const ifWins = writes.filter((w, i) => w.key === key && w.kind === "setIf0" && (answers[i] as unknown as { ok: boolean }).ok);
        expect(ifWins.length).toBeLessThanOrEqual(1);
        // Replaying the writes in version order through the model gives the stored value.
        let value: Record<string, unknown> | undefined;
        for (const { index } of [...versions].sort((x, y) => x.version - y.version)) {
          const w = writes[index]!;
          if (w.kind === "update") value = { ...value, [`p${w.player}`]: w.n };
          else value = JSON.parse(JSON.stringify({ [w.kind === "set" ? `set${index}` : `if${index}`]: w.n }));
          if (w.kind === "update") expect(JSON.parse((answers[index] as { value: string }).value)).toEqual(value);
        }
        const got = await ds.get({ ...where, key }, as(authority!));
        expect(got.version).toBe(versions.length);
        if (value) expect(JSON.parse(got.value)).toEqual(value);
        // Increments commute: the total is the sum of every delta.
        const total = writes.filter((w) => w.key === key && w.kind === "increment").reduce((sum, w) => sum + w.n, 0);
        const [entry] = (await ds.listOrdered({ limit: 100 }, as(authority!))).entries.filter((e) => e.key === orderedKey(key));
        expect(entry?.value ?? 0).toBe(total);
      }
    }), { numRuns: 40 });
  });

  it("should page ListKeys with no key skipped or repeated while keys are added and deleted between pages", async () => {
    await using t = await testServer("in-process", { datastore: { requestsPerMinute: 1e9 } });
    const key = fc.stringMatching(/^[a-e]{1,3}$/);
    const change = fc.record({ add: fc.boolean(), key });
    await fc.assert(fc.asyncProperty(
      fc.uniqueArray(key, { maxLength: 25 }), fc.integer({ min: 1, max: 4 }), fc.array(fc.array(change, { maxLength: 4 }), { maxLength: 30 }),
      fc.constantFrom("", "a", "b"),
      async (initial, limit, changes, prefix) => {
        const game = await newGame(t, 1);
        const [p] = game.players;
        const ds = game.client.datastore;
        await Promise.all(initial.map((k) => ds.set({ key: k, value: "0" }, as(p!))));
        const touched = new Set<string>();
        const seen: string[] = [];
        let after = "";
        for (let page = 0; ; page++) {
          const out = await ds.listKeys({ prefix, limit, after }, as(p!));
          expect(out.keys.length).toBeLessThanOrEqual(limit);
          seen.push(...out.keys);
          if (!out.next) break;
          expect(out.next).toBe(out.keys.at(-1));
          after = out.next;
          // Others write while the pages are read.
          await Promise.all((changes[page] ?? []).map((c) => {
            touched.add(c.key);
            return c.add ? ds.set({ key: c.key, value: "1" }, as(p!)) : ds.delete({ key: c.key }, as(p!));
          }));
        }
        // In strict key order (so nothing repeats), all with the prefix, and every key that was there throughout is there.
        for (let i = 1; i < seen.length; i++) expect(seen[i - 1]! < seen[i]!).toBe(true);
        expect(seen.every((k) => k.startsWith(prefix))).toBe(true);
        for (const k of initial) if (k.startsWith(prefix) && !touched.has(k)) expect(seen).toContain(k);
      },
    ), { numRuns: 60 });
  });

  it("should rank ListOrdered pages exactly as a sort of the model, in both directions", async () => {
    await using t = await testServer("in-process", { datastore: { requestsPerMinute: 1e9 } });
    await fc.assert(fc.asyncProperty(
      fc.array(fc.tuple(fc.stringMatching(/^[a-f]{1,2}$/), fc.integer({ min: -20, max: 20 })), { maxLength: 60 }),
      fc.boolean(), fc.nat(40), fc.integer({ min: 1, max: 100 }),
      async (increments, ascending, offset, limit) => {
        const game = await newGame(t, 1);
        const [p] = game.players;
        const model = new Map<string, number>();
        await Promise.all(increments.map(([key, delta]) => {
          model.set(key, (model.get(key) ?? 0) + delta);
          return game.client.datastore.incrementOrdered({ key, delta }, as(p!));
        }));
        const sorted = [...model].map(([key, value]) => ({ key, value }))
          .sort((a, b) => (ascending ? a.value - b.value : b.value - a.value) || (a.key < b.key ? -1 : 1))
          .map((e, i) => ({ ...e, rank: i + 1 }));
        const out = await game.client.datastore.listOrdered({ ascending, offset, limit }, as(p!));
        expect(out.entries).toEqual(sorted.slice(offset, offset + limit));
      },
    ), { numRuns: 60 });
  });
});

import { describe, expect, it } from "vitest";
import { tables } from "@playfield/core";
import { createMemoryServer } from "@playfield/server-memory";
import { createMovableClock } from "../src/index.js";
import { createSequence } from "../src/services/economy/ledger.js";

/*
 * `seq` numbers order economy rows (services/economy/ledger.ts). Each server
 * has its own sequence, as servers in different processes do; the order
 * across servers that one wallet owes is kept by its ledger (the two-server
 * case is in shared-state-suite.ts).
 */

const T = Date.UTC(2026, 5, 1, 12, 0, 0);

describe("createSequence", () => {
  it("should hand out the clock's milliseconds × 1,024, then one more each time while the clock stands still or goes back", () => {
    const clock = createMovableClock();
    clock.freeze();
    clock.set(T);
    const sequence = createSequence(clock);
    expect([sequence.next(), sequence.next(), sequence.next()]).toEqual([T * 1024, T * 1024 + 1, T * 1024 + 2]);
    clock.set(T - 1000);
    expect(sequence.next()).toBe(T * 1024 + 3);
    clock.set(T + 1);
    expect(sequence.next()).toBe((T + 1) * 1024);
  });

  it("should answer at least the number asked for, and go on from it", () => {
    const clock = createMovableClock();
    clock.freeze();
    clock.set(T);
    const sequence = createSequence(clock);
    expect(sequence.next(T * 1024 + 500)).toBe(T * 1024 + 500);
    expect(sequence.next()).toBe(T * 1024 + 501);
    expect(sequence.next(5)).toBe(T * 1024 + 502);
  });
});

describe("each server's own sequence", () => {
  it("should number a server's rows by its own clock, whatever another server in the process handed out", async () => {
    const [early, late] = [createMemoryServer(), createMemoryServer()];
    early.clock.freeze();
    early.clock.set(T);
    late.clock.freeze();
    late.clock.set(T + 3_600_000);
    const [ada, bob] = [await late.seed.user(), await early.seed.user()];
    await late.operator.wallets.grant(ada.userId, 5);
    await early.operator.wallets.grant(bob.userId, 5);
    const [row] = await early.deps.storage.transact((tx) => tx.query(tables.ledger, "byUser", { equals: [bob.userId] }));
    expect(row!.seq).toBe(T * 1024);
  });
});

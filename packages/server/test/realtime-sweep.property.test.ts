import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSlicedSweep, type SweepTimers } from "../src/realtime/sliced-sweep.js";

/*
 * The sweep that pings and rechecks realtime connections (docs/realtime.md,
 * "Liveness"): on a fake clock where each visit takes time, no slice starts
 * a visit past its budget, and every member is visited once per interval,
 * not before it joined and not after it left.
 */

/** Fake timers: a queue of callbacks by time; each callback is one task of the event loop. */
function fakeLoop(gapMs: number) {
  let time = 0;
  let seq = 0;
  const queue: { at: number; seq: number; fn: () => void; cancelled: boolean }[] = [];
  const tasks: { start: number; visitStarts: number[] }[] = [];
  let current: { start: number; visitStarts: number[] } | undefined;
  const push = (at: number, fn: () => void) => {
    const event = { at, seq: seq++, fn, cancelled: false };
    queue.push(event);
    return event;
  };
  const timers: SweepTimers = {
    now: () => time,
    after(ms, fn) {
      const event = push(time + ms, fn);
      return () => { event.cancelled = true; };
    },
    // Other connections' I/O runs before the next slice: gapMs of it.
    soon: (fn) => { push(time + gapMs, fn); },
  };
  return {
    timers,
    get now() { return time; },
    /** Spends `ms` inside the running task (a visit's cost). */
    spend(ms: number) {
      current?.visitStarts.push(time);
      time += ms;
    },
    /** Runs every task due up to `until` (and scheduled callbacks at their time). */
    runUntil(until: number, between?: (now: number) => void) {
      for (;;) {
        queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const event = queue[0];
        if (!event || event.at > until) break;
        queue.shift();
        if (event.cancelled) continue;
        time = Math.max(time, event.at);
        between?.(time);
        current = { start: time, visitStarts: [] };
        tasks.push(current);
        event.fn();
        current = undefined;
      }
      time = Math.max(time, until);
    },
    tasks,
  };
}

describe("createSlicedSweep", () => {
  it("should start no visit past a slice's budget and visit each member exactly once per interval", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 64 }), fc.double({ min: 0.001, max: 0.5, noNaN: true }),
      fc.double({ min: 0.5, max: 5, noNaN: true }), fc.double({ min: 0, max: 2, noNaN: true }), fc.integer({ min: 1, max: 4 }),
      (members, slots, costMs, budgetMs, gapMs, intervals) => {
        // An interval long enough for the work: each bucket's visits, and the gaps between its slices, fit in half a tick.
        const perBucket = Math.ceil(members / slots) * costMs;
        const tickMs = 2 * (perBucket + (perBucket / budgetMs + 1) * (gapMs + costMs)) + 1;
        const intervalMs = tickMs * slots;
        const loop = fakeLoop(gapMs);
        const visits = new Map<number, number>();
        const sweep = createSlicedSweep<number>({
          intervalMs, slots, sliceBudgetMs: budgetMs, timers: loop.timers,
          visit(member) {
            loop.spend(costMs);
            visits.set(member, (visits.get(member) ?? 0) + 1);
          },
        });
        for (let i = 0; i < members; i++) sweep.add(i);
        loop.runUntil(intervals * intervalMs + tickMs / 2);
        sweep.stop();
        for (const task of loop.tasks) for (const start of task.visitStarts) expect(start - task.start).toBeLessThan(budgetMs);
        for (let i = 0; i < members; i++) expect(visits.get(i)).toBe(intervals);
      },
    ), { numRuns: 30 });
  });

  it("should visit a member within an interval of joining and of its last visit, and never once it left", () => {
    fc.assert(fc.property(
      fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), stay: fc.double({ min: 0, max: 1.5, noNaN: true }) }), { maxLength: 300 }),
      fc.integer({ min: 1, max: 30 }),
      (joins, slots) => {
        const intervalMs = 1_000;
        const tickMs = intervalMs / slots;
        const runMs = 3 * intervalMs;
        const loop = fakeLoop(0.1);
        const seen = new Map<number, number[]>();
        const sweep = createSlicedSweep<number>({
          intervalMs, slots, sliceBudgetMs: 1, timers: loop.timers,
          visit(member) {
            loop.spend(0.01);
            seen.get(member)!.push(loop.now);
          },
        });
        // Joins and leaves happen between tasks, at their times.
        const events = joins.flatMap((j, i) => [
          { at: j.at * runMs, i, join: true }, { at: j.at * runMs + j.stay * intervalMs, i, join: false },
        ]).sort((a, b) => a.at - b.at);
        const spans = new Map<number, { from: number; to: number }>();
        let next = 0;
        const apply = (now: number) => {
          for (; next < events.length && events[next]!.at <= now; next++) {
            const { i, join, at } = events[next]!;
            if (join) {
              seen.set(i, []);
              spans.set(i, { from: at, to: Infinity });
              sweep.add(i);
            } else {
              spans.get(i)!.to = at;
              sweep.delete(i);
            }
          }
        };
        // Joins and leaves every tenth of a tick, between the wheel's tasks.
        for (let t = 0; t <= runMs; t += tickMs / 10) loop.runUntil(t, apply), apply(t);
        sweep.stop();
        for (const [i, times] of seen) {
          const { from, to } = spans.get(i)!;
          const end = Math.min(to, runMs);
          // Within an interval and a tick (the tick's lateness, as joins fall between ticks) of joining, then of each visit.
          let last = from;
          for (const t of times) {
            expect(t).toBeGreaterThanOrEqual(from);
            expect(t).toBeLessThanOrEqual(to);
            expect(t - last).toBeLessThanOrEqual(intervalMs + tickMs + 1);
            last = t;
          }
          expect(end - last).toBeLessThanOrEqual(intervalMs + tickMs + 1);
        }
      },
    ), { numRuns: 30 });
  });

  it("should visit thousands of members on Node's timers within one interval", async () => {
    const visited = new Set<number>();
    const sweep = createSlicedSweep<number>({ intervalMs: 200, slots: 4, sliceBudgetMs: 0.5, visit: (member) => { visited.add(member); } });
    for (let i = 0; i < 20_000; i++) sweep.add(i);
    await new Promise((resolve) => setTimeout(resolve, 300));
    sweep.stop();
    expect(visited.size).toBe(20_000);
  });
});

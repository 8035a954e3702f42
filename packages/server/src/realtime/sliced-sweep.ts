/*
 * A timer wheel that visits every member once per interval without a pass
 * over all of them at once: the members are spread over `slots` buckets,
 * one bucket falls due every interval / slots, and a due bucket is visited
 * in slices of at most `sliceBudgetMs`, each slice giving the event loop
 * back (setImmediate) before the next. The realtime server pings and
 * rechecks its connections with it (docs/realtime.md, "Liveness"), so the
 * loop's longest stall does not grow with the number of connections.
 */

/** The time and timers a sweep runs on; tests pass a fake one. */
export interface SweepTimers {
  /** Milliseconds, monotonic. */
  now(): number;
  /** Runs `fn` once after `ms`; answers a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
  /** Runs `fn` once the event loop has handled what is waiting (I/O first). */
  soon(fn: () => void): void;
}

/** Node's timers: `performance.now`, an unref'd `setTimeout`, `setImmediate`. */
export const nodeTimers: SweepTimers = {
  now: () => performance.now(),
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref?.();
    return () => clearTimeout(timer);
  },
  soon: (fn) => { setImmediate(fn); },
};

export interface SlicedSweepOptions<T> {
  /** Each member is visited once per this many ms. */
  intervalMs: number;
  /** Buckets of the wheel; one falls due every intervalMs / slots. Default: one per 100 ms of the interval, at least 1, at most 600. */
  slots?: number;
  /** A slice starts no visit once it has run this long; the event loop gets its turn before the next. Default 2 ms. */
  sliceBudgetMs?: number;
  /** Called once per member per interval. It may remove members (itself included). */
  visit(member: T): void;
  timers?: SweepTimers;
}

export interface SlicedSweep<T> {
  /** Adds a member (a member already in is left where it is); its first visit comes within one interval. */
  add(member: T): void;
  /** Removes a member: it is not visited again. */
  delete(member: T): void;
  readonly size: number;
  /** The members, in no particular order. */
  [Symbol.iterator](): IterableIterator<T>;
  /** Stops the wheel: no visit after this. */
  stop(): void;
}

/** Creates and starts a sweep. */
export function createSlicedSweep<T>(options: SlicedSweepOptions<T>): SlicedSweep<T> {
  const { intervalMs, visit } = options;
  if (!(intervalMs > 0)) throw new RangeError("intervalMs: more than 0");
  const slots = options.slots ?? Math.min(600, Math.max(1, Math.round(intervalMs / 100)));
  if (!Number.isInteger(slots) || slots < 1) throw new RangeError("slots: a whole number, 1 or more");
  const budget = options.sliceBudgetMs ?? 2;
  const timers = options.timers ?? nodeTimers;
  const tickMs = intervalMs / slots;

  const wheel: Set<T>[] = Array.from({ length: slots }, () => new Set<T>());
  const slotOf = new Map<T, number>();
  // New members go to the buckets in turn, so a burst of connections (a restart's clients coming back) spreads over the whole interval.
  let placed = 0;
  let cursor = 0;
  // Members of due buckets not visited yet, oldest bucket first: a copy of each bucket as it fell due.
  const due: T[][] = [];
  let dueAt = 0;
  let running = false;
  let stopped = false;

  let nextAt = timers.now() + tickMs;
  let cancel = timers.after(tickMs, tick);

  function tick(): void {
    if (stopped) return;
    const bucket = wheel[cursor]!;
    cursor = (cursor + 1) % slots;
    if (bucket.size > 0) due.push([...bucket]);
    // Each tick is set from the last one's time, so the wheel does not drift by the timers' lateness; after a stall
    // longer than a tick it slips rather than firing the missed ticks at once (a member would be visited twice in a row).
    const now = timers.now();
    nextAt = nextAt + tickMs < now ? now + tickMs : nextAt + tickMs;
    cancel = timers.after(Math.max(0, nextAt - now), tick);
    if (!running) slice();
  }

  /** Visits due members until the budget is spent, then hands the loop back and goes on later. */
  function slice(): void {
    running = false;
    if (stopped) return;
    const from = timers.now();
    while (due.length > 0) {
      const members = due[0]!;
      while (dueAt < members.length) {
        if (timers.now() - from >= budget) {
          running = true;
          timers.soon(slice);
          return;
        }
        const member = members[dueAt++]!;
        // One that left since its bucket fell due is not visited.
        if (slotOf.has(member)) visit(member);
        if (stopped) return;
      }
      due.shift();
      dueAt = 0;
    }
  }

  return {
    add(member) {
      if (stopped || slotOf.has(member)) return;
      const slot = placed++ % slots;
      slotOf.set(member, slot);
      wheel[slot]!.add(member);
    },
    delete(member) {
      const slot = slotOf.get(member);
      if (slot === undefined) return;
      slotOf.delete(member);
      wheel[slot]!.delete(member);
    },
    get size() { return slotOf.size; },
    [Symbol.iterator]: () => slotOf.keys(),
    stop() {
      stopped = true;
      cancel();
      due.length = 0;
    },
  };
}

import { tables, transactAfterReads, withChanges, type DatastoreUsageShardRow, type Storage } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import { leaseShard, usageElsewhere } from "./usage.js";
import { USAGE_FRESH_MS, UsageCopy } from "./usage-copy.js";

/*
 * Calls that write nothing but their count (Get, ListKeys, ListOrdered) are
 * counted in the process (docs/datastore.md, "Limits per experience"): each
 * process keeps, per storage and experience, the calls it admitted this
 * window and has not written yet, and writes them into a usage shard in a
 * transaction of its own, in the background, at most every COUNTS_WRITE_MS
 * while it has some (and when the server goes idle: `flushCounts`). That
 * transaction also reads the experience's sum, which reading calls check
 * their budget against, with what this process counted since. So a warm
 * Get writes nothing and reads only rows a process keeps copies of.
 *
 * Calls that write (and a reading call that finds no fresh sum, or a player
 * not seen yet) count in their own transaction as before, and take the
 * calls pending here along into their shard row. The background write of an
 * experience never runs beside a writing call of it in this process (it
 * waits for none to be running; they wait for it), so one call at a time in
 * one process is counted exactly, whichever way each goes.
 */

/** How often a process writes the calls it counted in memory, while it has some. */
export const COUNTS_WRITE_MS = 200;

/** One budget window's calls of an experience, as this process knows them. */
export class WindowCounts {
  /** Calls of the window in the experience's shards as last read, plus what this process wrote since. */
  stored = 0;
  /** When that sum was read (performance.now()); -Infinity: not in this window. */
  readAt = -Infinity;
  /** Calls admitted in memory, not written yet. */
  pending = 0;
  /** Calls taken by a transaction in flight (the background write's, or a writing call's). */
  writing = 0;

  constructor(readonly start: number) {}

  /** The experience's calls this window: the sum as read, and this process's since. */
  get usage(): number {
    return this.stored + this.pending + this.writing;
  }

  /** Whether the sum is fresh enough for a reading call to be counted in memory. */
  get fresh(): boolean {
    return this.readAt >= performance.now() - USAGE_FRESH_MS;
  }

  /** Moves the pending calls to a transaction about to write them; answers how many. */
  take(): number {
    const taken = this.pending;
    this.pending = 0;
    this.writing += taken;
    return taken;
  }

  /** Gives back what a transaction took and did not write. */
  giveBack(taken: number): void {
    this.writing -= taken;
    this.pending += taken;
  }

  /** A transaction wrote `taken` calls and `own` more of its own, having summed the experience's rows from this process's copy, not read them. */
  counted(taken: number, own: number): void {
    this.writing -= taken;
    this.stored += taken + own;
  }

  /** A transaction wrote `taken` calls and `own` more of its own, and read the window's sum as `sum` (null: read none). */
  wrote(taken: number, own: number, sum: number | null): void {
    this.writing -= taken;
    if (sum === null) return;
    // The sum may predate a write of this process that committed meanwhile: what this process added counts either way.
    this.stored = Math.max(this.stored + taken + own, sum);
    this.readAt = performance.now();
  }
}

/** An experience's counts in this process. */
export class ExperienceCounts {
  window: WindowCounts;
  /** Writing calls of the experience running in this process: the background write waits until there are none. */
  writers = 0;
  /** The background write running, which writing calls wait for. */
  writingBack: Promise<void> | null = null;
  /** The usage shards the experience's running calls (and background write) of this process hold, a bit each (`leaseShard`). */
  heldShards = 0;
  /** The experience's usage rows as this process last read and wrote them. */
  readonly rows = new UsageCopy();

  constructor(start: number) {
    this.window = new WindowCounts(start);
  }

  /** The counts of the window starting at `start`: a new window starts from nothing (what was pending no longer counts). */
  windowAt(start: number): WindowCounts {
    if (this.window.start !== start) this.window = new WindowCounts(start);
    return this.window;
  }

  /**
   * Counts a writing call in until `leave`, once the background write (if
   * one runs) is done: answers what to wait for then, or null when none runs
   * and the call is counted in already (most calls: no promise to make).
   */
  enter(): Promise<void> | null {
    if (this.writingBack === null) {
      this.writers++;
      return null;
    }
    return this.enterAfterWrite();
  }

  private async enterAfterWrite(): Promise<void> {
    while (this.writingBack !== null) await this.writingBack;
    this.writers++;
  }

  leave(): void {
    this.writers--;
  }
}

/** The counts of one server's storage: per experience, and the timer of the background write. */
class ProcessCounts {
  readonly experiences = new Map<string, ExperienceCounts>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Picks this process's shard for the background write (`leaseShard`): processes spread over the shards. */
  private readonly shardKey = `process:${Math.random()}`;

  constructor(private readonly storage: Storage, private readonly onError: (error: unknown) => void) {}

  of(experienceId: string, start: number): ExperienceCounts {
    let counts = this.experiences.get(experienceId);
    if (counts === undefined) {
      this.experiences.set(experienceId, counts = new ExperienceCounts(start));
      // The timer's ticks drop it once it is idle.
      this.schedule();
    }
    counts.windowAt(start);
    return counts;
  }

  /** Counts one admitted reading call, to be written in the background. */
  admit(experienceId: string, start: number): void {
    const { window } = this.experiences.get(experienceId) ?? this.of(experienceId, start);
    // Admitted in a window that ended while it ran: that window's count no longer matters (and the new one's must stay).
    if (window.start !== start) return;
    window.pending++;
    this.schedule();
  }

  /** Writes every pending count now (after the timer's, or writing calls', if running) and stops the timer. */
  async flush(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await Promise.all([...this.experiences].map(async ([experienceId, counts]) => {
      while (counts.writingBack !== null) await counts.writingBack;
      await this.writeBack(experienceId, counts);
    }));
    // Its ticks drop the experiences once idle.
    if (this.experiences.size > 0) this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => this.tick(), COUNTS_WRITE_MS);
    // The counts are no reason to keep a process alive: a server's shutdown writes them (`flushCounts`).
    this.timer.unref?.();
  }

  private tick(): void {
    this.timer = null;
    for (const [experienceId, counts] of this.experiences) {
      void this.writeBack(experienceId, counts);
      const idle = counts.window.pending === 0 && counts.window.writing === 0 && counts.writingBack === null && counts.writers === 0 && counts.heldShards === 0;
      if (idle && !counts.window.fresh) this.experiences.delete(experienceId);
    }
    if (this.experiences.size > 0) this.schedule();
  }

  /** Starts the background write of an experience's pending calls, unless one runs or a writing call (which takes them along) does. */
  private writeBack(experienceId: string, counts: ExperienceCounts): Promise<void> {
    if (counts.writingBack !== null) return counts.writingBack;
    if (counts.writers > 0 || counts.window.pending === 0) return Promise.resolve();
    const done = writeCounts(this.storage, experienceId, counts, this.shardKey)
      .catch(this.onError)
      .finally(() => { counts.writingBack = null; });
    counts.writingBack = done;
    return done;
  }
}

/**
 * Writes a window's pending calls into a shard of this process's and reads
 * the experience's sum, in one transaction (the other shards from the
 * snapshot before it, as calls do). A write that fails (the database
 * unreachable, or closed under the server) loses its calls, as a crash
 * would, rather than trying them again every interval: the caller reports it.
 */
async function writeCounts(storage: Storage, experienceId: string, counts: ExperienceCounts, shardKey: string): Promise<void> {
  const { window } = counts;
  const taken = window.take();
  const lease = leaseShard(counts, shardKey);
  try {
    let written: DatastoreUsageShardRow | undefined;
    const sum = await transactAfterReads(storage, (tx) => usageElsewhere(tx, window.start, experienceId, lease.shard, counts.rows), async (tx, read) => {
      const id = tables.datastoreUsageShardId(experienceId, lease.shard);
      const [stored, elsewhere] = await Promise.all([tx.get(tables.datastoreUsageShards, id), read]);
      // A shard already in a later window: these calls no longer count.
      if (stored !== undefined && stored.windowStart > window.start) return null;
      const row: DatastoreUsageShardRow = stored === undefined
        ? { id, experienceId, shard: lease.shard, windowStart: window.start, requests: taken, storedBytes: 0, playersSeen: 0 }
        : withChanges(stored, stored.windowStart === window.start ? { requests: stored.requests + taken } : { windowStart: window.start, requests: taken });
      await tx.put(tables.datastoreUsageShards, row);
      written = row;
      return elsewhere.requests + row.requests;
    });
    if (sum !== null) counts.rows.committed(written!);
    window.wrote(taken, 0, sum);
  } catch (error) {
    window.wrote(taken, 0, null);
    throw error;
  } finally {
    lease.release();
  }
}

/** Counts per storage: a server's own storage object (its transactions counted by its lifecycle), so one per server. */
const perStorage = new WeakMap<Storage, ProcessCounts>();

function processCounts(deps: ServerDeps): ProcessCounts {
  let counts = perStorage.get(deps.storage);
  if (counts === undefined) perStorage.set(deps.storage, counts = new ProcessCounts(deps.storage, deps.onInternalError));
  return counts;
}

/** The counts of an experience in this process, in the window starting at `start`. */
export function experienceCounts(deps: ServerDeps, experienceId: string, start: number): ExperienceCounts {
  return processCounts(deps).of(experienceId, start);
}

/** Counts a reading call admitted in memory in the window starting at `start`; the background write writes it. */
export function countInProcess(deps: ServerDeps, experienceId: string, start: number): void {
  processCounts(deps).admit(experienceId, start);
}

/** Writes every count this server's process holds now (a server going idle: its shutdown). */
export function flushCounts(deps: ServerDeps): Promise<void> {
  return perStorage.get(deps.storage)?.flush() ?? Promise.resolve();
}

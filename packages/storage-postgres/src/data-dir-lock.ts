/*
 * One process per data folder. PGlite keeps no lock of its own, and two
 * processes writing one folder lose each other's writes with no error, so
 * the folder holds `playfield.lock`: the holder's process id and what tells
 * that process apart from a later one given the same id (its start time and
 * the machine's boot, where /proc says them). A lock whose holder is gone —
 * a `kill -9`, a power loss — is stale and taken over, as PostgreSQL does
 * with its postmaster.pid.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The lock file's name inside the data folder. */
export const LOCK_FILE = "playfield.lock";

/** A data folder another live process holds: its message names the folder and the holder's PID. */
export class DataDirInUseError extends Error {
  override readonly name = "DataDirInUseError";
  constructor(readonly folder: string, readonly pid: number) {
    super(`the data folder ${folder} is in use by process ${pid}${pid === process.pid ? " (this one)" : ""}: `
      + "one process at a time may hold a folder; stop that one, or choose another folder");
  }
}

/** Who holds a lock: enough to tell a live holder from a dead one whose PID was reused. */
interface Holder {
  pid: number;
  /** The process's start, in clock ticks since boot (/proc/PID/stat), where known. */
  start?: string;
  /** The machine's boot id, where known: a lock from before a reboot is stale whatever its PID. */
  boot?: string;
}

export interface DataDirLock {
  /** Gives the folder back (once; later calls do nothing). */
  release(): void;
}

/**
 * Takes the lock of `folder` (created when missing) for this process, or
 * throws {@link DataDirInUseError} when a live process holds it.
 *
 * @example
 * const lock = lockDataDir("./data");
 * try { … } finally { lock.release(); }
 */
export function lockDataDir(folder: string): DataDirLock {
  const path = join(folder, LOCK_FILE);
  mkdirSync(folder, { recursive: true });
  const mine = JSON.stringify(holderOf(process.pid));
  // A few rounds: each either takes the lock, refuses for a live holder, or clears one stale lock.
  for (let round = 0; round < 5; round++) {
    try {
      writeFileSync(path, mine, { flag: "wx" });
      return releaser(path, mine);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const text = readText(path);
    if (text === null) continue; // released between the two calls
    const holder = parseHolder(text);
    if (holder !== null && isAlive(holder)) throw new DataDirInUseError(resolve(folder), holder.pid);
    // Stale (or unreadable: a crash mid-write). Remove it only if it is still the one judged.
    if (readText(path) === text) unlinkSafe(path);
  }
  throw new Error(`cannot take the lock ${path}: it kept changing (several processes starting on one folder?)`);
}

function releaser(path: string, mine: string): DataDirLock {
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off("exit", release);
    if (readText(path) === mine) unlinkSafe(path);
  };
  // A process.exit() skips close(): the lock goes with the process anyway. A kill -9 leaves it, stale.
  process.on("exit", release);
  return { release };
}

function holderOf(pid: number): Holder {
  const start = startOf(pid);
  const boot = readText("/proc/sys/kernel/random/boot_id")?.trim();
  return { pid, ...(start ? { start } : {}), ...(boot ? { boot } : {}) };
}

function isAlive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: alive, owned by another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = holderOf(holder.pid);
  if (holder.boot !== undefined && now.boot !== undefined && holder.boot !== now.boot) return false;
  if (holder.start !== undefined && now.start !== undefined && holder.start !== now.start) return false;
  return true;
}

/** Field 22 of /proc/PID/stat (after the command name, which may hold spaces and parentheses). */
function startOf(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === null) return undefined;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

function parseHolder(text: string): Holder | null {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    return Number.isSafeInteger(value.pid) && value.pid! > 0 ? value as Holder : null;
  } catch {
    return null;
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function unlinkSafe(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/*
 * PGlite in a data folder, with its commits on disk when they return
 * (docs/storage.md, "Durability"). As published, PGlite in Node never asks
 * the operating system to write anything to the disk: it starts PostgreSQL
 * with fsync off (`-F`), and its Node file system (Emscripten's NODEFS,
 * which writes each block straight to the folder's files) has no fsync
 * (`fdatasync` returns at once; `fsync` of a stream without the operation
 * returns success). A commit is then in the operating system's cache: it
 * survives the process being killed, not a power loss or a crash of the
 * machine, which may also leave the folder unreadable.
 *
 * So: PostgreSQL starts with fsync on and `wal_sync_method = fsync` (the
 * call that reaches the stream's operation), and NODEFS gets the fsync
 * operation it lacks. A sync of a log file (`pg_wal/`) is noted, not made:
 * the commit returns with its log written to the file, and its caller is
 * answered after `durable()`, one sync of every file noted, shared by the
 * commits made meanwhile and run on Node's thread pool while the next
 * transactions run (a group commit: PGlite's transactions take turns on one
 * thread, where each waiting for the disk in turn would bound them all by
 * the disk's fsync rate). Any other sync (a data file at a checkpoint, the
 * control file, a folder) first syncs every log file noted, then itself, at
 * once: PostgreSQL's order (the log before what rests on it) is kept, and
 * checkpoints sync the data files before they drop the log, as on a server.
 */
import { PGlite } from "@electric-sql/pglite";
import fs from "node:fs";
import { join, resolve, sep } from "node:path";

/** What this file needs of the Emscripten module inside PGlite (not part of PGlite's typed interface). */
interface NodeFsModule {
  NODEFS?: {
    stream_ops?: { fsync?: (stream: NodeFsStream) => number };
    realPath?: (node: unknown) => string;
  };
}
interface NodeFsStream {
  nfd?: number;
  node: unknown;
}

/** A folder path, as opposed to PGlite's other stores (`memory://`, `idb://`, `opfs-ahp://`). */
export function isFolder(dataDir: string | undefined): dataDir is string {
  return dataDir !== undefined && !/^[a-z][a-z0-9+-]*:\/\//i.test(dataDir);
}

/** PGlite on a folder, syncing: see `syncedPglite`. */
export interface SyncedPglite {
  db: PGlite;
  /** Settles once it syncs to disk: the instance must not be used before. Rejects, naming the cause, when it cannot. */
  synced: Promise<void>;
  /** Settles once every commit made so far is on disk. */
  durable(): Promise<void>;
}

/** PGlite on `dataDir` (a folder), its commits synced to disk (this file's header). */
export function syncedPglite(dataDir: string): SyncedPglite {
  const log = new LogSync(join(resolve(dataDir), "pg_wal"));
  const startParams = PGlite.defaultStartParams.filter((param) => param !== "-F").concat(["-c", "wal_sync_method=fsync"]);
  const db = new PGlite({ dataDir, startParams });
  const synced = db.waitReady.then(async () => {
    const nodefs = (db as unknown as { mod?: NodeFsModule }).mod?.NODEFS;
    const ops = nodefs?.stream_ops;
    const realPath = nodefs?.realPath;
    if (ops === undefined || realPath === undefined) {
      throw new Error(`PGlite: its Node file system is not the one this adapter knows (no NODEFS): cannot make commits in ${dataDir} reach the disk`);
    }
    ops.fsync ??= (stream) => {
      log.fsync(realPath(stream.node), stream.nfd);
      return 0;
    };
    // What PostgreSQL wrote before the operation was there (initdb, recovery and its checkpoint): synced once now.
    syncTree(dataDir);
    const settings = await db.query<{ fsync: string }>("SHOW fsync");
    if (settings.rows[0]?.fsync !== "on") throw new Error(`PGlite in ${dataDir} started with fsync off: its commits would not reach the disk`);
  });
  return { db, synced, durable: () => log.durable() };
}

/** The log files whose sync PostgreSQL asked for, synced together later (`durable`) or before any other sync. */
class LogSync {
  /** Files noted since the last sync began, and files a sync running now is syncing. */
  private readonly noted = new Set<string>();
  private readonly syncing = new Set<string>();
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(private readonly logDir: string) {}

  /** NODEFS's fsync of the file at `path` (its descriptor, when it has one). */
  fsync(path: string, fd: number | undefined): void {
    if (path.startsWith(this.logDir + sep)) {
      this.noted.add(path);
      return;
    }
    for (const file of [...this.syncing, ...this.noted]) syncIfThere(file);
    this.noted.clear();
    if (fd !== undefined) fs.fsyncSync(fd);
    else syncPath(path);
  }

  /** Settles once every file noted so far is synced: in the sync running, or in the next one, which takes all noted by then. */
  durable(): Promise<void> {
    if (this.noted.size === 0) return this.running ?? Promise.resolve();
    return this.next ??= (this.running ?? Promise.resolve()).catch(() => undefined).then(() => {
      this.next = undefined;
      const files = [...this.noted];
      this.noted.clear();
      for (const file of files) this.syncing.add(file);
      const run = Promise.all(files.map(syncLater)).then(() => undefined).finally(() => {
        for (const file of files) this.syncing.delete(file);
        if (this.running === run) this.running = undefined;
      });
      this.running = run;
      return run;
    });
  }
}

/** fdatasync of a file by its path, on the thread pool; nothing for a file gone (renamed: PostgreSQL syncs it by its new name). */
function syncLater(path: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    fs.open(path, "r", (opened, fd) => {
      if (opened) return opened.code === "ENOENT" ? resolve() : reject(opened);
      fs.fdatasync(fd, (synced) => fs.close(fd, () => (synced ? reject(synced) : resolve())));
    });
  });
}

/** fsync of a file by its path, now; nothing for a file gone. */
function syncIfThere(path: string): void {
  try {
    syncPath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** fsync of a file or folder by its path (a folder's entries: a file created or renamed in it lasts). */
function syncPath(path: string): void {
  const fd = fs.openSync(path, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** fsync of every file and folder under `dir`, and of `dir`. */
function syncTree(dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) syncTree(path);
    else if (entry.isFile()) syncPath(path);
  }
  syncPath(dir);
}

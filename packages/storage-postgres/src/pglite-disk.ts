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
 * operation it lacks, as Node's `fsyncSync` of the stream's file. A commit
 * then returns once its log is on disk, and checkpoints sync the data files
 * before they drop the log, as PostgreSQL does on any server.
 */
import { PGlite } from "@electric-sql/pglite";
import fs from "node:fs";
import { join } from "node:path";

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

/**
 * PGlite on `dataDir` (a folder), and a promise settled once it syncs its commits to disk: the instance must not be
 * used before. Rejects, naming the cause, when this PGlite has no NODEFS to give fsync to (another version).
 */
export function syncedPglite(dataDir: string): { db: PGlite; synced: Promise<void> } {
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
      if (stream.nfd !== undefined) fs.fsyncSync(stream.nfd);
      else syncPath(realPath(stream.node));
      return 0;
    };
    // What PostgreSQL wrote before the operation was there (initdb, recovery and its checkpoint): synced once now.
    syncTree(dataDir);
    const settings = await db.query<{ fsync: string }>("SHOW fsync");
    if (settings.rows[0]?.fsync !== "on") throw new Error(`PGlite in ${dataDir} started with fsync off: its commits would not reach the disk`);
  });
  return { db, synced };
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

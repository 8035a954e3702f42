/*
 * PGlite in a data folder: each write is answered only once its commit is
 * on disk (pglite-disk.ts; docs/storage.md, "Durability"): writes through
 * the adapter acknowledged one after another each come after a sync made
 * since the one before; writes made at once share syncs; the folder opens
 * again with every row.
 * A power loss cannot be staged here; what is checked is that the disk was
 * asked, and when.
 */
import { defineTable } from "@playfield/core";
import fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createPgliteStorage } from "../src/index.js";

interface Row { id: string; n: number }
const Plain = defineTable<Row>()({ name: "disk_plain", primaryKey: (row) => row.id, indexes: {} });
/** The real syncs, called by the spies that record each. */
const fsyncOriginal = fs.fsyncSync.bind(fs);
const fdatasyncOriginal = fs.fdatasync.bind(fs);

describe("PGlite in a data folder", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "playfield-pglite-disk-"));
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await rm(folder, { recursive: true, force: true });
  });

  // A new PGlite cluster takes seconds to make, a minute on a loaded machine.
  it("should answer each write only after a sync made since the write before it was answered", { timeout: 240_000 }, async () => {
    const dataDir = join(folder, "data");
    const storage = createPgliteStorage({ dataDir });
    const events: string[] = [];
    try {
      await storage.init([Plain]);
      const fsync = vi.spyOn(fs, "fsyncSync").mockImplementation((fd) => {
        fsyncOriginal(fd);
        events.push("sync");
      });
      const fdatasync = vi.spyOn(fs, "fdatasync").mockImplementation(((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
        fdatasyncOriginal(fd, (error) => {
          if (!error) events.push("sync");
          callback(error);
        });
      }) as typeof fs.fdatasync);
      const writes = 10;
      for (let i = 0; i < writes; i++) {
        await storage.transact((tx) => tx.put(Plain, { id: `row-${i}`, n: i }));
        events.push(`answered ${i}`);
      }
      fsync.mockRestore();
      fdatasync.mockRestore();
      // Each answer with no fsync between it and the answer before it.
      const unsynced: string[] = [];
      let synced = false;
      for (const event of events) {
        if (event === "sync") synced = true;
        else if (!synced) unsynced.push(event);
        else synced = false;
      }
      expect(unsynced).toEqual([]);
    } finally {
      await storage.close();
    }
    // The folder opens again, every row in it; writes made at once share their syncs.
    const again = createPgliteStorage({ dataDir });
    try {
      const rows = await again.transact((tx) => Promise.all(Array.from({ length: 10 }, (_, i) => tx.get(Plain, `row-${i}`))), { readOnly: true });
      expect(rows.map((row) => row?.n)).toEqual(Array.from({ length: 10 }, (_, i) => i));
      const fdatasync = vi.spyOn(fs, "fdatasync");
      await Promise.all(Array.from({ length: 20 }, (_, i) => again.transact((tx) => tx.put(Plain, { id: `at-once-${i}`, n: i }))));
      expect(fdatasync.mock.calls.length).toBeGreaterThan(0);
      expect(fdatasync.mock.calls.length).toBeLessThan(20);
      fdatasync.mockRestore();
    } finally {
      await again.close();
    }
  });
});


/*
 * The data folder's lock: a live holder (this process, or another) is
 * refused with the folder and its PID; a dead holder's lock, or one from
 * another boot or an earlier process under the same PID, is taken over.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPgliteStorage } from "../src/index.js";
import { DataDirInUseError, LOCK_FILE, lockDataDir } from "../src/data-dir-lock.js";

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), "playfield-lock-")); });
afterAll(() => rm(folder, { recursive: true, force: true }));

/** A PID that no process holds: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await once(child, "exit");
  return child.pid!;
}

describe("lockDataDir", () => {
  it("should refuse a folder held by a live process, naming the folder and the PID, until it is released", () => {
    const dir = join(folder, "held");
    const lock = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(new DataDirInUseError(resolve(dir), process.pid));
    lock.release();
    lockDataDir(dir).release();
  });

  it("should refuse a folder another live process holds", async () => {
    const dir = join(folder, "other");
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      await mkdir(dir);
      await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: child.pid }));
      expect(() => lockDataDir(dir)).toThrow(`the data folder ${resolve(dir)} is in use by process ${child.pid}:`);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("should take over the lock of a process that is gone, of another boot, or of an earlier process under a live PID", async () => {
    const dir = join(folder, "stale");
    lockDataDir(dir).release();
    const stale = [
      { pid: await deadPid() },
      { pid: process.pid, boot: "another-boot" },
      { pid: process.pid, start: "1" },
      "half-written {",
    ];
    for (const holder of stale) {
      await writeFile(join(dir, LOCK_FILE), typeof holder === "string" ? holder : JSON.stringify(holder));
      const lock = lockDataDir(dir);
      expect(JSON.parse(await readFile(join(dir, LOCK_FILE), "utf8"))).toMatchObject({ pid: process.pid });
      lock.release();
    }
  });
});

describe("createPgliteStorage on a folder", () => {
  it("should hold the folder until closed", async () => {
    const dir = join(folder, "pglite");
    const storage = createPgliteStorage({ dataDir: dir });
    expect(() => createPgliteStorage({ dataDir: dir })).toThrow(DataDirInUseError);
    await storage.close();
    await createPgliteStorage({ dataDir: dir }).close();
  }, 60_000);
});

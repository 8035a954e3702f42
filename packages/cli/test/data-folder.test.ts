/*
 * One server per data folder, and one process per command: a second
 * `playfield-server` on a folder in use refuses to start and names the
 * folder and the holder; `kill -9` of the PID the command prints frees its
 * port and its folder, which the next start opens with what was written.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, runServer, startServerProcess } from "./server-process.js";

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), "playfield-folder-")); });
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("playfield-server on a data folder", () => {
  it("should refuse a second server on a folder in use, and start after kill -9 of the first with its data", async () => {
    const data = join(folder, "data");
    const first = await startServerProcess(["--data-dir", data]);
    expect(first.lines[0]).toContain(`pid ${first.pid}`);
    await call(first.url, "IdentityService/SignUp", { username: "kept_one", password: "a long password", birthdate: "1990-01-01" });

    const second = await runServer(["--data-dir", data]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`the data folder ${resolve(data)} is in use by process ${first.pid}`);

    // The command is the server: its PID's kill -9 ends it, port and folder with it (no child left behind).
    await first.kill9();
    await expect(fetch(`${first.url}/healthz`)).rejects.toThrow();
    const third = await startServerProcess(["--data-dir", data]);
    try {
      const signedIn = await call(third.url, "IdentityService/SignIn", { username: "kept_one", password: "a long password" });
      expect(signedIn.accessToken).toEqual(expect.any(String));
    } finally {
      await third.stop();
    }
    // A refused import leaves a folder that was there before as it was.
    const file = join(folder, "not-a-world.jsonl");
    await writeFile(file, "{\"not\":\"a world\"}\n");
    const before = await readdir(data);
    expect((await runServer(["import", file, "--data-dir", data])).code).toBe(1);
    expect(await readdir(data)).toEqual(before);
  }, 120_000);

  it("should create no folder when an import is refused", async () => {
    const file = join(folder, "not-a-world-either.jsonl");
    await writeFile(file, "{\"not\":\"a world\"}\n");
    const target = join(folder, "never-made");
    const refused = await runServer(["import", file, "--data-dir", target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^playfield-server: cannot import .*: line 1: not a Playfield world file/);
    expect(existsSync(target)).toBe(false);
  }, 120_000);
});

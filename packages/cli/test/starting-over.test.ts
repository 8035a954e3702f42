/*
 * docs/configuration.md, "Starting over", for a data folder: the folder keeps
 * the world across a restart, and deleting it as the page shows gives an
 * empty one (the name signed up before is free again).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { signUpAda, startingOverCommands } from "./starting-over.js";

describe("starting over with a data folder (docs/configuration.md)", () => {
  it("should keep the world in the folder, and start empty once the page's rm has deleted it", async () => {
    const folder = await mkdtemp(join(tmpdir(), "playfield-starting-over-"));
    // The page's commands, on a folder of the test's own.
    const { start, remove } = startingOverCommands("data folder");
    const [at, dataDir] = [/\.\/data\b/g, join(folder, "data")];
    try {
      const args = start.replace(/^npm start -- /, "").replace(at, dataDir).split(" ");
      expect(args).toEqual(["--data-dir", dataDir]);
      expect(await signUpAda(args)).toBe("");
      expect(await signUpAda(args), "the folder kept the account").toBe("already_exists");
      expect(remove.replace(at, dataDir)).toBe(`rm -rf ${dataDir}`);
      await promisify(execFile)("sh", ["-c", remove.replace(at, dataDir)]);
      expect(await signUpAda(args), "a new folder, an empty world").toBe("");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 180_000);
});

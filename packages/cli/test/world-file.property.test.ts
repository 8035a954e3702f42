import fc from "fast-check";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryServer } from "@playfield/server-memory";
import { createMemoryStorage } from "@playfield/server";
import { exportWorld, importWorld, WorldFileError } from "../src/world-file.js";

/*
 * `playfield-server import FILE` reads a file anyone may have edited: a
 * world file with any one line changed or added is imported whole, or
 * refused with a WorldFileError naming a line at or after the changed one,
 * and then nothing of it is in the storage (the same storage still takes
 * the original file, which it would refuse if any row had stayed).
 */

let folder: string;
let original: string[];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "playfield-world-property-"));
  const server = createMemoryServer();
  const ada = await server.seed.user();
  await server.seed.user();
  await server.operator.wallets.grant(ada.userId, 25);
  await exportWorld(server.deps.storage, join(folder, "original.jsonl"));
  original = (await readFile(join(folder, "original.jsonl"), "utf8")).split("\n").filter((line) => line !== "");
});

afterAll(() => rm(folder, { recursive: true, force: true }));

const noBreaks = (text: string) => !/[\r\n]/.test(text);
/** What one line may be: anything, JSON of any shape, and near misses of the file's own lines. */
const line = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.json(),
  fc.record({ table: fc.constantFrom("users", "wallets", "ledger", "nope", "__proto__"), row: fc.anything() }).map((entry) => JSON.stringify(entry)),
  fc.record({ end: fc.oneof(fc.constant(null), fc.record({ rows: fc.oneof(fc.nat(30), fc.string()) })) }).map((entry) => JSON.stringify(entry)),
  fc.record({ format: fc.constantFrom("playfield-world", "other"), version: fc.oneof(fc.nat(3), fc.string()) }).map((entry) => JSON.stringify(entry)),
).filter(noBreaks);

describe("importWorld of an edited file (property)", () => {
  it("should import a file with one line changed or added whole, or refuse it naming the line, leaving nothing behind", async () => {
    let run = 0;
    await fc.assert(fc.asyncProperty(fc.nat(), fc.boolean(), line, async (at, insert, text) => {
      const index = at % (original.length + (insert ? 1 : 0));
      const lines = [...original];
      lines.splice(index, insert ? 0 : 1, text);
      const path = join(folder, `edited-${run++}.jsonl`);
      await writeFile(path, `${lines.join("\n")}\n`);
      const storage = createMemoryStorage();
      try {
        await importWorld(storage, path);
        return;
      } catch (error) {
        if (!(error instanceof WorldFileError)) throw error;
        const named = /\bline (\d+)\b/.exec(error.message);
        expect(named, error.message).not.toBeNull();
        expect(Number(named![1])).toBeGreaterThanOrEqual(index + 1);
      } finally {
        await rm(path, { force: true });
      }
      // Nothing of the refused file stayed: the storage still counts as empty.
      await expect(importWorld(storage, join(folder, "original.jsonl"))).resolves.toMatchObject({ rows: original.length - 2 });
    }), { numRuns: 200 });
  });
});

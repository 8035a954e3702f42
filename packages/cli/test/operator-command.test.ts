/*
 * Operators from the command line: `playfield-server operator add|remove|list`
 * (in process on memory: the command's storage is any), and the first start on
 * a data folder printing admin's generated password once, kept in the folder.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryStorage, createScryptHasher, FAST_TEST_COST } from "@playfield/server";
import { runOperatorCommand } from "../src/operator-command.js";
import { parseServerArgs, UsageError } from "../src/server-args.js";
import { runServer, startServerProcess } from "./server-process.js";

let folder: string;
beforeAll(async () => { folder = await mkdtemp(join(tmpdir(), "playfield-operators-")); });
afterAll(() => rm(folder, { recursive: true, force: true }));

describe("playfield-server operator", () => {
  it("should parse add, remove and list, and refuse what cannot run", () => {
    const data = ["--data-dir", "d"];
    expect(parseServerArgs(["operator", "add", "helper", "--role", "support", ...data], { PLAYFIELD_OPERATOR_PASSWORD: "pw 12345678" }).command)
      .toEqual({ kind: "operator", action: "add", username: "helper", role: "support", password: "pw 12345678" });
    expect(parseServerArgs(["operator", "list", ...data], {}).command).toEqual({ kind: "operator", action: "list" });
    expect(parseServerArgs(["operator", "remove", "helper", ...data], {}).command).toEqual({ kind: "operator", action: "remove", username: "helper" });
    expect(() => parseServerArgs(["operator", "add", "helper", ...data], {})).toThrow(/--role: one of admin, moderator, support, viewer/);
    expect(() => parseServerArgs(["operator", "list"], {})).toThrow(/needs --data-dir or --database-url/);
    expect(() => parseServerArgs(["operator", "add", "helper", "--role", "viewer", ...data], { PLAYFIELD_OPERATOR_PASSWORD: "short" })).toThrow(UsageError);
    expect(() => parseServerArgs(["--role", "viewer"], {})).toThrow(/--role is an option of operator add/);
    expect(() => parseServerArgs([], { PLAYFIELD_ADMIN_PASSWORD: "short" })).toThrow(/PLAYFIELD_ADMIN_PASSWORD: 8 to 200 characters/);
    expect(parseServerArgs([], { PLAYFIELD_ADMIN_PASSWORD: "long enough" }).adminPassword).toBe("long enough");
  });

  it("should add, list and remove operators, never printing a given password", async () => {
    const storage = createMemoryStorage();
    const hasher = createScryptHasher({ cost: FAST_TEST_COST });
    const added = await runOperatorCommand({ kind: "operator", action: "add", username: "helper", role: "support", password: "helper password" }, storage, hasher);
    expect(added).toEqual([expect.stringMatching(/^added operator helper \(support, op_/)]);
    const generated = await runOperatorCommand({ kind: "operator", action: "add", username: "viewer1", role: "viewer", password: null }, storage, hasher);
    expect(generated[1]).toMatch(/^ {2}password: \S{20,} {2}\(printed once\)$/);
    const listed = await runOperatorCommand({ kind: "operator", action: "list" }, storage, hasher);
    expect(listed.map((line) => line.split("\t").slice(0, 2))).toEqual([["helper", "support"], ["viewer1", "viewer"]]);
    expect(await runOperatorCommand({ kind: "operator", action: "remove", username: "HELPER" }, storage)).toEqual([expect.stringMatching(/^removed operator helper/)]);
    await expect(runOperatorCommand({ kind: "operator", action: "remove", username: "helper" }, storage, hasher)).rejects.toThrow(/no operator named helper/);
  });

  it("should print admin's generated password at the first start on a folder, which keeps it", async () => {
    const data = join(folder, "data");
    const first = await startServerProcess(["--data-dir", data]);
    const printed = first.lines.find((line) => line.includes("operator admin created with password"));
    expect(printed).toMatch(/password \S{20,} \(printed once/);
    expect((await first.stop()).code).toBe(0);
    const listed = await runServer(["operator", "list", "--data-dir", data]);
    expect(listed.stdout).toMatch(/^admin\tadmin\top_/);
  }, 120_000);
});

import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlocks, shellCommands, typeErrors, type CodeBlock } from "./code-blocks.js";
import { killGroup, npmStart, type NpmStarted } from "./npm-start.js";

/*
 * docs/getting-started.md, followed as a newcomer follows it: `npm start`,
 * then after each step the file of the steps so far, run with the page's own
 * command against that server, printing what the page says it prints.
 */

const repo = fileURLToPath(new URL("../..", import.meta.url));
const GUIDE = "docs/getting-started.md";
const blocks = codeBlocks(GUIDE, readFileSync(join(repo, GUIDE), "utf8"));
const where = (block: CodeBlock) => `${block.doc}:${block.line}`;
/** The file the page has the reader write, and the command that runs it. */
const FILE = "my-game.ts";
const RUN = `node --conditions=@playfield/source --import tsx ${FILE}`;
const PAGE_URL = "http://127.0.0.1:8080";

/** The repository's compiler settings (tsconfig.base.json): the root tsconfig.json covers the reader's file with them. */
function repoCompilerOptions(): ts.CompilerOptions {
  const { config } = ts.readConfigFile(join(repo, "tsconfig.base.json"), ts.sys.readFile) as { config: { compilerOptions: object } };
  return ts.convertCompilerOptionsFromJson(config.compilerOptions, repo).options;
}

/** Each TypeScript block with the `text` block right after it: what a run prints for that step. */
const steps = blocks.flatMap((block, i) => (block.lang === "ts" ? [{ block, prints: blocks[i + 1]?.lang === "text" ? blocks[i + 1] : undefined }] : []));

/** What a run should print, as a pattern: `…` stands for one word that changes from run to run. */
function printed(texts: string[]): RegExp {
  const escaped = texts.join("").trimEnd().replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replaceAll("…", "\\S+");
  return new RegExp(`^${escaped}$`);
}

describe("docs/getting-started.md, step by step", () => {
  let started: NpmStarted | undefined;
  const written: string[] = [];

  beforeAll(async () => { started = await npmStart(repo); }, 60_000);
  afterAll(() => {
    if (started) killGroup(started.child);
    for (const file of written) rmSync(file, { force: true });
  });

  it("should show only the commands this test runs", () => {
    const commands = blocks.filter((b) => b.lang === "sh").flatMap(shellCommands);
    expect(commands).toEqual(["npm ci", "npm start", RUN]);
  });

  it("should say after each TypeScript block what it prints", () => {
    expect(steps.length).toBeGreaterThanOrEqual(7);
    for (const { block, prints } of steps) expect(prints, `${where(block)}: no text block after it`).toBeDefined();
  });

  it("should print, with npm start, the line the page shows", () => {
    const shown = blocks.find((b, i) => b.lang === "text" && shellCommands(blocks[i - 1]!).includes("npm start"))!;
    // The page's PID stands for the one this run printed.
    const line = started!.firstLine.replace(new URL(started!.url).host, new URL(PAGE_URL).host).replace(/\bpid \d+\)/, "pid 4242)");
    expect(line).toBe(shown.code.trimEnd());
  });

  it("should compile the blocks, one after the other in one file, with the repository's settings", () => {
    const source = steps.map((s) => s.block.code).join("\n");
    expect(typeErrors(new Map([[join(repo, FILE), `${source}\nexport {};\n`]]), repoCompilerOptions())).toEqual([]);
  }, 120_000);

  /** Writes the first `count` steps as the reader's file (under a name of its own) and runs the page's command on it. */
  async function runSteps(count: number, name: string): Promise<{ stdout: string; stderr: string }> {
    const file = join(repo, name);
    written.push(file);
    const code = steps.slice(0, count).map((s) => s.block.code).join("\n").replaceAll(PAGE_URL, started!.url);
    writeFileSync(file, code);
    return promisify(execFile)("sh", ["-c", RUN.replace(FILE, name)], { cwd: repo, timeout: 60_000 });
  }

  for (let count = 1; count <= steps.length; count++) {
    const step = steps[count - 1]!;
    it(`should print what the page shows once the step at ${where(step.block)} is added`, async () => {
      const { stdout, stderr } = await runSteps(count, `.my-game-${process.pid}-${count}.ts`);
      expect(stdout.trimEnd()).toMatch(printed(steps.slice(0, count).map((s) => s.prints!.code)));
      expect(stderr).toBe("");
    }, 90_000);
  }

  it("should print the same when the whole file runs again on the same server", async () => {
    const { stdout } = await runSteps(steps.length, `.my-game-${process.pid}-again.ts`);
    expect(stdout.trimEnd()).toMatch(printed(steps.map((s) => s.prints!.code)));
  }, 90_000);
});

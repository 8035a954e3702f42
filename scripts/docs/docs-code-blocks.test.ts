import { execFile } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import * as client from "@playfield/client";
import * as serverMemory from "@playfield/server-memory";
import * as serverMemoryMsw from "@playfield/server-memory/msw";
import * as mswNode from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killGroup, npmStart, type NpmStarted } from "./npm-start.js";
import { asFunctionBody, codeBlocks, freeNames, shellCommands, typeErrors, type CodeBlock } from "./code-blocks.js";

/*
 * Every code block of the README and docs/testing.md, as written: shell
 * commands name scripts that exist (and `npm start` and curl are run), and
 * TypeScript blocks compile against the sources and run.
 */

const repo = fileURLToPath(new URL("../..", import.meta.url));
const DOCS = ["README.md", "docs/testing.md"];
const blocks = DOCS.flatMap((doc) => codeBlocks(doc, readFileSync(join(repo, doc), "utf8")));
const scripts = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
const where = (block: CodeBlock) => `${block.doc}:${block.line}`;

/** What a block may take from the text around it, with its type (to compile) and its value (to run). */
const CONTEXT = {
  server: { type: `import("@playfield/server-memory").MemoryServer`, value: () => serverMemory.createMemoryServer() },
  client: { type: `import("@playfield/client").PlayfieldClient`, value: () => client.createClient({ baseUrl: "http://playfield.test" }) },
  createClient: { type: `typeof import("@playfield/client").createClient`, value: () => client.createClient },
  ServerSnapshot: { type: null, value: null },
} as const;
const HOOKS = ["beforeAll", "beforeEach", "afterEach", "afterAll"] as const;
const MODULES: Record<string, unknown> = {
  "@playfield/client": client,
  "@playfield/server-memory": serverMemory,
  "@playfield/server-memory/msw": serverMemoryMsw,
  "msw/node": mswNode,
};

describe("the code blocks of README.md and docs/testing.md", () => {
  let started: NpmStarted | undefined;
  const api = () => started!.url;

  beforeAll(async () => { started = await npmStart(repo); }, 60_000);
  // The last test stops it; this is for a run cut short.
  afterAll(() => { if (started) killGroup(started.child); });

  it("should name only commands and npm scripts that exist", () => {
    const commands = blocks.filter((b) => b.lang === "sh").flatMap((b) => shellCommands(b).map((c) => ({ c, at: where(b) })));
    expect(commands.length).toBeGreaterThan(5);
    for (const { c, at } of commands) {
      for (const part of c.split("&&").map((p) => p.trim())) {
        const npm = /^npm (ci|test|start|run (\S+))\b/.exec(part);
        if (npm?.[2]) expect(scripts, `${at}: ${part}`).toHaveProperty(npm[2]);
        else if (npm?.[1] === "test" || npm?.[1] === "start") expect(scripts, `${at}: ${part}`).toHaveProperty(npm[1]);
        else expect(npm !== null || part.startsWith("curl "), `${at}: ${part} is not a command this test knows`).toBe(true);
      }
    }
  });

  it("should start the server with npm start, answer /healthz, and the README's curl", async () => {
    expect((await fetch(`${api()}/healthz`)).status).toBe(200);
    const curls = blocks.filter((b) => b.lang === "sh").flatMap(shellCommands).filter((c) => c.startsWith("curl "));
    expect(curls.length).toBeGreaterThan(0);
    for (const curl of curls) {
      // As written, but on the port this run's server got.
      const line = curl.replace("localhost:8080", new URL(api()).host);
      const { stdout } = await promisify(execFile)("sh", ["-c", line]);
      expect(JSON.parse(stdout), line).toHaveProperty("accessToken");
    }
  }, 20_000);

  const tsBlocks = blocks.filter((b) => b.lang === "ts");

  /** A block's free names, declared for the compiler. */
  const declarations = (block: CodeBlock) => [
    ...freeNames(block.code, Object.keys(CONTEXT)).map((name) => {
      const { type } = CONTEXT[name as keyof typeof CONTEXT];
      return type ? `declare const ${name}: ${type};` : `type ${name} = import("@playfield/server-memory").${name};`;
    }),
    ...freeNames(block.code, HOOKS).map((hook) => `import { ${hook} } from "vitest";`),
  ].join("\n");

  it("should compile every TypeScript block against the sources", () => {
    expect(tsBlocks.length).toBeGreaterThanOrEqual(6);
    const sources = new Map(tsBlocks.map((block, i) => [
      join(repo, `scripts/docs/block-${i}.ts`),
      `${declarations(block)}\n${block.code}\nexport {};\n`,
    ]));
    expect(typeErrors(sources)).toEqual([]);
  }, 120_000);

  for (const block of tsBlocks) {
    it(`should run the block at ${where(block)}`, async () => {
      // The README's own server address is the one `npm start` listens on.
      const code = block.code.replaceAll("http://127.0.0.1:8080", api());
      const names = freeNames(code, Object.keys(CONTEXT)).filter((name) => CONTEXT[name as keyof typeof CONTEXT].value);
      const hooks: Record<string, (() => unknown)[]> = Object.fromEntries(HOOKS.map((hook) => [hook, []]));
      const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
      const run = new AsyncFunction("__module", ...names, ...HOOKS, asFunctionBody(code));
      const module = (name: string) => {
        if (!(name in MODULES)) throw new Error(`${where(block)} imports ${name}: add it to MODULES`);
        return MODULES[name];
      };
      await run(
        module,
        ...names.map((name) => CONTEXT[name as keyof typeof CONTEXT].value!()),
        ...HOOKS.map((hook) => (fn: () => unknown) => hooks[hook]!.push(fn)),
      );
      // The hooks it registered, in the order a test file runs them around one test.
      for (const hook of HOOKS) for (const fn of hooks[hook]!) await fn();
    }, 20_000);
  }

  it("should stop npm start, server and all, with SIGTERM to npm's process", async () => {
    const { child, url } = started!;
    child.kill("SIGTERM");
    await once(child, "exit");
    // Nothing of the group is left (a process left behind would keep the port).
    await expect.poll(() => {
      try {
        process.kill(-child.pid!, 0);
        return "running";
      } catch {
        return "gone";
      }
    }, { timeout: 10_000 }).toBe("gone");
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  }, 20_000);
});

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { mcpClient } from "./mcp-client.js";

// Every command docs/scripts.md and docs/script-editor.md show, run as
// written through npx from the repository (no build), in a folder of their
// own so `--project my-game --create` makes its folder there.
const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const DOCS = ["docs/scripts.md", "docs/script-editor.md"].map((path) => ({ path, text: readFileSync(join(REPO, path), "utf8") }));
mkdirSync(join(REPO, "node_modules/.cache"), { recursive: true });
// Inside the repository (so npx finds its bin), in a folder git ignores.
const WORK = mkdtempSync(join(REPO, "node_modules/.cache/playfield-docs-"));
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

/** The fenced blocks of a document: language and lines. */
function blocks(text: string): { lang: string; lines: string[] }[] {
  return [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, lines: m[2]!.split("\n").filter((l) => l !== "") }));
}

/** The shell commands of a document's sh blocks, comments removed, each with the jsonl block right after its block (if any). */
function shellCommands(text: string): { command: string; transcript: string[] | undefined }[] {
  const all = blocks(text);
  return all.flatMap((block, i) => block.lang !== "sh" ? [] : block.lines.map((line) => ({
    command: line.replace(/\s+#.*$/, ""),
    transcript: block.lines.length === 1 && all[i + 1]?.lang === "jsonl" ? all[i + 1]!.lines : undefined,
  })));
}

const freePort = () => new Promise<number>((resolve) => {
  const server = createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

/** Runs a shell command line in `cwd`; resolves with its exit code and output, or fails after a minute. */
function shell(command: string, stdin: string, cwd = WORK): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => { child.kill("SIGKILL"); reject(new Error(`${command}: no end in 60 s`)); }, 60_000);
    child.stdout.on("data", (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on("data", (d: Buffer) => { stderr += d.toString(); });
    child.on("close", (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
    child.stdin.end(stdin);
  });
}

/** Starts a long-running shell command in its own process group; resolves with the first match of `ready` in its output. */
async function started(command: string, ready: RegExp, cwd: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn("sh", ["-c", `exec ${command}`], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${command}: not ready in 60 s: ${out}`)), 60_000);
    const read = (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) { clearTimeout(timer); resolve(m); }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    void exited.then((code) => { clearTimeout(timer); reject(new Error(`${command}: exited with ${code}: ${out}`)); });
  });
  // The whole group: npm does not pass signals on to the node it starts.
  return { match, stop: () => { process.kill(-child.pid!, "SIGTERM"); return exited; } };
}

describe("the commands docs/scripts.md and docs/script-editor.md show", () => {
  const commands = DOCS.flatMap((doc) => shellCommands(doc.text).map((c) => ({ ...c, doc: doc.path })));

  it("should find them", () => {
    expect(commands.map((c) => c.command)).toEqual([
      "npx playfield-scripts --manual-ticks --project my-game --create",
      "npx playfield-scripts --manual-ticks --project my-game --create",
      "npx playfield-scripts serve --project my-game --port 8787",
    ]);
  });

  it("should answer the command lines' transcript as written", async () => {
    for (const { command, transcript, doc } of commands.filter((c) => !c.command.includes(" serve "))) {
      const lines = transcript ?? ['{"command":"script.list"}'];
      const sent = lines.filter((l) => l.startsWith('{"command"'));
      const run = await shell(command, sent.join("\n") + "\n");
      expect({ doc, command, code: run.code, stderr: run.stderr }).toEqual({ doc, command, code: 0, stderr: "" });
      const answers = run.stdout.split("\n").filter((l) => l !== "");
      expect(answers).toHaveLength(sent.length);
      // Each answer the document shows is the answer to the command above it.
      lines.forEach((line, i) => {
        if (!line.startsWith('{"ok"')) return;
        const answered = lines.slice(0, i).filter((l) => l.startsWith('{"command"')).length - 1;
        expect(JSON.parse(answers[answered]!)).toEqual(JSON.parse(line));
      });
      for (const answer of answers) expect(JSON.parse(answer)).toMatchObject({ ok: true });
    }
  }, 180_000);

  it("should serve as serve shows (on a free port instead of 8787)", async () => {
    const command = commands.find((c) => c.command.includes(" serve "))!.command;
    mkdirSync(join(WORK, "my-game"), { recursive: true }); // as the command line above it left it
    const port = await freePort();
    const server = await started(command.replace("8787", String(port)), /serving (http:\S+)/, WORK);
    try {
      expect(server.match[1]).toBe(`http://127.0.0.1:${port}`);
      const res = await fetch(`${server.match[1]}/commands/editor.scripts.files`, { method: "POST", headers: { "content-type": "application/json" }, body: "" });
      expect(await res.json()).toEqual({ ok: true, result: [] });
    } finally {
      await server.stop();
    }
  }, 90_000);

  it("should serve the garden example's panel with npm run serve in its folder", async () => {
    const editor = DOCS.find((d) => d.path === "docs/script-editor.md")!.text;
    expect(editor).toContain("`npm run serve` in that\nfolder opens its panel");
    const server = await started("npm run serve", /Scripts panel: (http:\S+)/, join(REPO, "examples/script-game"), { PORT: "0" });
    try {
      expect(await (await fetch(server.match[1]!)).text()).toContain("<title>Scripts</title>");
    } finally {
      await server.stop();
    }
  }, 90_000);

  it("should run the MCP configuration's command: an MCP client lists the tools", async () => {
    const editor = DOCS.find((d) => d.path === "docs/script-editor.md")!.text;
    const config = blocks(editor).find((b) => b.lang === "json" && b.lines.join("\n").includes("mcpServers"))!;
    const server = (JSON.parse(config.lines.join("\n")) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers["playfield-scripts"]!;
    const client = await mcpClient(server.command, server.args, WORK);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["script_load", "runtime_step", "script_list", "editor_scripts_check"]));
  }, 90_000);
});

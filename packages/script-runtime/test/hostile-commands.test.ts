import { readdirSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { Readable } from "node:stream";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { answerLines } from "../src/cli/command-lines.js";
import { createScriptServer } from "../src/cli/serve.js";
import type { ScriptServer } from "../src/cli/serve.js";
import { runBin } from "./cli-process.js";
import { editorFor, projectWith, writeProjectFile } from "./project-fixture.js";

// Hostile input on the command line and on serve's HTTP endpoint: every
// line and request gets an answer (never a crash, a hang or an internal
// error), and nothing is written outside the project's scripts folder.

const servers: ScriptServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const CODES = ["invalid_argument", "not_found", "failed_precondition"];
const COMMANDS = [
  "script.load", "script.list", "script.pause", "script.resume", "script.unload", "runtime.step", "runtime.emit", "script.api", "script.types",
  "editor.scripts.panel", "editor.scripts.files", "editor.scripts.edit", "editor.scripts.live_reload", "editor.scripts.check",
  "editor.scripts.state", "editor.scripts.source", "editor.scripts.save", "editor.scripts.load",
];
const PROTOTYPE_NAMES = ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty", "prototype", "then"];

const deep = (depth: number, leaf: string) => "[".repeat(depth) + leaf + "]".repeat(depth);
const deepObject = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** A value of an argument: right or wrong type, hostile names and paths, huge and deeply nested. */
const argValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom(...PROTOTYPE_NAMES, "a/../../escaped", "../up", "/abs", "a//b", ".", "..", "door", "x.y/z", ""),
  fc.integer({ min: -3, max: 5 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...PROTOTYPE_NAMES, "a", "name"), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  fc.constant("x".repeat(100_000)),
);
const argNames = fc.constantFrom("name", "source", "ticks", "event", "data", "format", "player", "roles", "owner", "friend", "open", "on", "language", ...PROTOTYPE_NAMES);

/** Arguments as JSON text: hostile values, or deeply nested. */
const argsText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(argNames, argValue, { maxKeys: 4 }).map((args) => JSON.stringify(args)) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((d) => `{"event":"e","data":${deep(d, "1")}}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map(deepObject) },
);

/** One command line: JSON of a command with hostile arguments, or text that is not one. */
const commandLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.oneof(fc.constantFrom(...COMMANDS), fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 30 })), argsText)
    .map(([command, args]) => `{"command":${JSON.stringify(command)},"args":${args}}`) },
  { weight: 1, arbitrary: fc.record({ command: fc.anything(), args: fc.anything() }, { requiredKeys: [] }).map((r) => JSON.stringify(r) ?? "{}") },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((s) => s.replaceAll("\n", " ")) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((d) => `{"command":"runtime.emit","args":{"event":"e","data":${deep(d, "1")}}}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 200_000 }).map((d) => `{"command":"script.load","args":${deepObject(d)}}`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }).map((t) => JSON.stringify({ command: "runtime.step", args: { ticks: t } })) },
);

/** A project folder inside a folder of its own (`around`), so that a write outside the scripts folder shows. */
function nestedProject(files: Record<string, string>): { project: string; around: string; outside: () => string[] } {
  const around = projectWith({});
  const project = join(around, "game");
  for (const [path, text] of Object.entries(files)) writeProjectFile(project, path, text);
  const scripts = join(project, "scripts");
  return { project, around, outside: () => filesUnder(around).filter((f) => !f.startsWith(scripts)) };
}

/** Every file under `dir`, by path. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
}

/** An answer is one JSON object: a result, or an error with one of the codes a caller can cause and a message. */
function expectAnswer(answer: unknown): void {
  const outcome = answer as { ok: boolean; result?: unknown; error?: { code: string; message: string } };
  if (outcome.ok === true) return;
  expect(outcome.ok).toBe(false);
  expect(CODES).toContain(outcome.error?.code);
  expect(outcome.error?.message.length).toBeGreaterThan(0);
}

describe("hostile command lines", () => {
  it("should keep a script's name inside the scripts folder (editor.scripts.save of a/../../escaped)", async () => {
    const { project, outside } = nestedProject({});
    const editor = editorFor(project);
    for (const name of ["a/../../escaped", "../up", "a/./b", "a//b", "a/"]) {
      expect(await editor.runtime.dispatch("editor.scripts.save", { name, source: "x" })).toEqual({
        ok: false,
        error: { code: "invalid_argument", message: expect.stringContaining("name: no folder named . or .. and no empty folder name") },
      });
    }
    expect(outside()).toEqual([]);
  });

  it("should answer runtime.emit data nested 100,000 deep with invalid_argument naming data and the limit", async () => {
    const editor = editorFor(projectWith({}));
    const data = JSON.parse(deep(100_000, "1")) as unknown;
    expect(await editor.runtime.dispatch("runtime.emit", { event: "e", data })).toEqual({
      ok: false,
      error: { code: "invalid_argument", message: "runtime.emit: data: nested deeper than 64 levels" },
    });
    expect(await editor.runtime.dispatch("runtime.emit", { event: "e", data: JSON.parse(deep(63, "1")) })).toEqual({ ok: true, result: { queued: "e" } });
  });

  it("should answer every line in order, in process, and write nothing outside the scripts folder", async () => {
    const { project, outside } = nestedProject({ "scripts/door.js": "export default {}" });
    const editor = editorFor(project);
    await fc.assert(fc.asyncProperty(fc.array(commandLine, { minLength: 1, maxLength: 8 }), async (lines) => {
      const answers: string[] = [];
      await answerLines(editor.runtime, Readable.from([lines.join("\n")]), (a) => { answers.push(a); });
      expect(answers).toHaveLength(lines.filter((l) => l.trim() !== "").length);
      for (const answer of answers) expectAnswer(JSON.parse(answer));
    }), { numRuns: 150 });
    expect(outside()).toEqual([]);
  }, 120_000);

  it("should answer a line over the limit without keeping it, and read on", async () => {
    const editor = editorFor(projectWith({}));
    const answers: string[] = [];
    // The long line arrives in pieces and never ends in a newline before the next command.
    const pieces = ['{"command":"script.list"}\n', "x".repeat(600), "y".repeat(600), "z\n", '{"command":"script.list"}\n', "w".repeat(2_000)];
    await answerLines(editor.runtime, Readable.from(pieces), (a) => { answers.push(a); }, 1_000);
    expect(answers.map((a) => (JSON.parse(a) as { ok: boolean; error?: { message: string } }).error?.message ?? "ok")).toEqual([
      "ok", "a command line is at most 1000 bytes", "ok", "a command line is at most 1000 bytes",
    ]);
  });
});

/** Sends one raw HTTP request; resolves with the status and body, or fails after 10 s. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    // The default agent keeps connections alive, as browsers and fetch do.
    const req = request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => { text += d; });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    req.on("error", reject);
    req.end(body);
  });
}

const httpRequest = fc.record({
  method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "POST", "POST"),
  path: fc.oneof(
    fc.constantFrom(...COMMANDS, ...PROTOTYPE_NAMES, "..%2F..%2Fx", "").map((c) => `/commands/${c}`),
    fc.constantFrom("/", "/index.html", "/commands", "/commands/", "/%00", "//commands/script.list", "/commands/script.list?x=1"),
    fc.webPath().map((p) => p === "" ? "/" : p),
  ),
  type: fc.constantFrom("application/json", "application/json; charset=utf-8", "APPLICATION/JSON", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""),
  body: fc.oneof(argsText, commandLine, fc.constant("")),
});

describe("hostile requests to serve's HTTP endpoint", () => {
  it("should answer every request with a JSON error or result (the panel page aside), never 5xx, in process", async () => {
    const { project, outside } = nestedProject({ "scripts/door.js": "export default {}" });
    const editor = editorFor(project);
    const server = await createScriptServer(editor.runtime, { maxBodyBytes: 64 * 1024 });
    servers.push(server);
    await fc.assert(fc.asyncProperty(httpRequest, async ({ method, path, type, body }) => {
      const sent = method === "GET" || method === "HEAD" || method === "TRACE" ? "" : body;
      // A body goes with its length: Node's client sends DELETE and OPTIONS bodies unframed otherwise.
      const headers: Record<string, string> = { ...(type === "" ? {} : { "content-type": type }), ...(sent === "" ? {} : { "content-length": String(Buffer.byteLength(sent)) }) };
      const res = await send(server.port, method, path, headers, sent);
      expect(res.status).toBeLessThan(500);
      if (method === "HEAD") return;
      if (res.status === 200 && method === "GET" && (path === "/" || path === "/index.html")) expect(res.body).toContain("<title>Scripts</title>");
      else expectAnswer(JSON.parse(res.body));
    }), { numRuns: 200 });
    expect(outside()).toEqual([]);
  }, 120_000);
});

describe("hostile command lines to a real process", () => {
  it("should answer each line and end cleanly when its input ends", async () => {
    const project = projectWith({ "scripts/door.js": "export default {}" });
    const lines = fc.sample(commandLine, { numRuns: 40, seed: 17 });
    const run = await runBin(["--manual-ticks", "--project", project], { stdin: lines.join("\n") + "\n", timeoutMs: 90_000 });
    expect(run.code).toBe(0);
    const answers = run.stdout.split("\n").filter((l) => l !== "");
    expect(answers).toHaveLength(lines.filter((l) => l.trim() !== "").length);
    for (const answer of answers) expectAnswer(JSON.parse(answer));
  }, 120_000);
});

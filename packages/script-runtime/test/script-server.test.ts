import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { createScriptServer } from "../src/cli/serve.js";
import type { ScriptServer } from "../src/cli/serve.js";
import { BIN, runCli } from "./cli-process.js";
import { editorFor, projectWith } from "./project-fixture.js";

const servers: ScriptServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const post = async (url: string, command: string, body: unknown) => {
  const res = await fetch(`${url}/commands/${command}`, { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as unknown };
};

describe("createScriptServer", () => {
  it("should run POST /commands/<command> with JSON arguments and answer JSON", async () => {
    const editor = editorFor(projectWith({ "scripts/door.js": "export default { init() { return { n: 1 } } }" }));
    const server = await createScriptServer(editor.runtime);
    servers.push(server);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await post(server.url, "editor.scripts.load", { name: "door" })).toEqual({ status: 200, json: { ok: true, result: { queued: "door", applies: "next fixed tick" } } });
    expect(await post(server.url, "runtime.step", { ticks: 2 })).toMatchObject({ status: 200, json: { ok: true, result: { tick: 2 } } });
    expect(await post(server.url, "editor.scripts.files", "")).toEqual({ status: 200, json: { ok: true, result: [{ name: "door", path: "scripts/door.js", running: true }] } });
  });

  it("should answer errors with their code and a matching status", async () => {
    const editor = editorFor(projectWith({}));
    const server = await createScriptServer(editor.runtime);
    servers.push(server);
    expect(await post(server.url, "script.load", { name: "x" })).toEqual({ status: 400, json: { ok: false, error: { code: "invalid_argument", message: "script.load: source: required argument missing" } } });
    expect(await post(server.url, "script.nothing", {})).toEqual({ status: 404, json: { ok: false, error: { code: "not_found", message: "unknown command: script.nothing" } } });
    expect(await post(server.url, "script.list", "{not json")).toEqual({ status: 400, json: { ok: false, error: { code: "invalid_argument", message: "the body must be a JSON object of arguments" } } });
  });

  it("should refuse other methods, content types, sites and oversized bodies with an error answer", async () => {
    const editor = editorFor(projectWith({}));
    const server = await createScriptServer(editor.runtime, { maxBodyBytes: 1024 });
    servers.push(server);
    const at = `${server.url}/commands/script.list`;
    const answer = async (res: Response) => ({ status: res.status, allow: res.headers.get("allow"), json: (await res.json()) as unknown });
    expect(await answer(await fetch(at))).toEqual({ status: 405, allow: "POST", json: { ok: false, error: { code: "invalid_argument", message: "method: commands take POST with a JSON body" } } });
    expect(await answer(await fetch(at, { method: "PUT", headers: { "content-type": "application/json" }, body: "{}" }))).toMatchObject({ status: 405 });
    expect(await answer(await fetch(at, { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" })))
      .toEqual({ status: 415, allow: null, json: { ok: false, error: { code: "invalid_argument", message: "content-type: commands take application/json" } } });
    expect(await answer(await fetch(at, { method: "POST", body: "{}" }))).toMatchObject({ status: 415 });
    expect(await answer(await fetch(at, { method: "POST", headers: { "content-type": "application/json", origin: "https://evil.example" }, body: "{}" })))
      .toMatchObject({ status: 403, json: { error: { message: "origin: https://evil.example may not call this server; only pages it serves" } } });
    expect(await answer(await fetch(at, { method: "POST", headers: { "content-type": "application/json", origin: server.url }, body: "{}" }))).toMatchObject({ status: 200 });
    expect(await answer(await fetch(at, { method: "POST", headers: { "content-type": "application/json; charset=utf-8" }, body: "x".repeat(2048) })))
      .toMatchObject({ status: 413, json: { error: { message: "body: at most 1024 bytes" } } });
    expect(await answer(await fetch(server.url, { method: "POST" }))).toMatchObject({ status: 405, allow: "GET, HEAD" });
    expect(await answer(await fetch(`${server.url}/nowhere`))).toMatchObject({ status: 404, json: { error: { code: "not_found" } } });
  });

  it("should refuse a Host other than its own (DNS rebinding)", async () => {
    const editor = editorFor(projectWith({}));
    const server = await createScriptServer(editor.runtime);
    servers.push(server);
    const { request } = await import("node:http");
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${server.url}/commands/script.list`, { method: "POST", headers: { host: `attacker.example:${server.port}`, "content-type": "application/json" } }, (res) => { res.resume(); resolve(res.statusCode); });
      req.on("error", reject);
      req.end("{}");
    });
    expect(status).toBe(403);
  });

  it("should serve the Scripts panel page at /", async () => {
    const editor = editorFor(projectWith({}));
    const server = await createScriptServer(editor.runtime);
    servers.push(server);
    const res = await fetch(server.url);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toContain("<title>Scripts</title>");
  });
});

describe("playfield-scripts", () => {
  it("should act on a project with --project: editor commands and its scripts folder", async () => {
    const project = projectWith({ "scripts/door.js": "import { two } from 'modules/n'; export default { init() { return { two } } }", "scripts/modules/n.js": "export const two = 2;" });
    const answers = await runCli([
      { command: "editor.scripts.load", args: { name: "door" } },
      { command: "runtime.step", args: { ticks: 1 } },
      { command: "editor.scripts.files" },
      { command: "script.api" },
    ], ["--manual-ticks", "--project", project]);
    expect(answers[2]).toEqual({ ok: true, result: [{ name: "door", path: "scripts/door.js", running: true }, { name: "modules/n", path: "scripts/modules/n.js", running: false }] });
    expect((answers[3] as { result: { kinds: { kind: string }[] } }).result.kinds.map((k) => k.kind)).toEqual(["World", "Part", "Player"]);
  }, 60_000);

  it("should serve commands over HTTP with serve --project DIR --port N", async () => {
    const project = projectWith({ "scripts/door.js": "export default {}" });
    const child = spawn(process.execPath, [BIN, "serve", "--project", project, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on("close", (code) => reject(new Error(`exited with ${code}`)));
      });
      expect(await post(url, "editor.scripts.edit", { name: "door" })).toEqual({ status: 200, json: { ok: true, result: { opened: "scripts/door.js" } } });
      // SIGTERM to the launcher's process reaches the server, which stops cleanly.
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});

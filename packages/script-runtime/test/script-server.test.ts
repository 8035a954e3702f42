import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createScriptServer } from "../src/cli/serve.js";
import type { ScriptServer } from "../src/cli/serve.js";
import { runCli } from "./cli-process.js";
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
  });

  it("should serve commands over HTTP with serve --project DIR --port N", async () => {
    const project = projectWith({ "scripts/door.js": "export default {}" });
    const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
    const child = spawn(process.execPath, ["--conditions=@playfield/source", "--import", "tsx", cli, "serve", "--project", project, "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
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
    } finally {
      child.kill("SIGTERM");
    }
  });
});

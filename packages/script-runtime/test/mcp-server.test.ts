import { spawn } from "node:child_process";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { commandTools, toolName } from "../src/cli/mcp-server.js";
import { BIN } from "./cli-process.js";
import { COUNTER } from "./helpers.js";
import { mcpClient } from "./mcp-client.js";
import { editorFor, projectWith } from "./project-fixture.js";

/** The JSON a tool call answered in its text content. */
const json = (result: unknown): unknown => JSON.parse(((result as CallToolResult).content[0] as { text: string }).text);

describe("commandTools", () => {
  it("should make every registered command a tool, its description and input schema derived from the command", () => {
    const editor = editorFor(projectWith({}));
    const commands = editor.runtime.commands.list();
    const tools = commandTools(editor.runtime);
    expect(tools.map((t) => t.command)).toEqual(commands.map((c) => c.name));
    for (const [i, { name, summary, args }] of commands.entries()) {
      const { tool } = tools[i]!;
      expect(tool.name).toBe(name.replaceAll(".", "_"));
      expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(tool.description).toContain(summary);
      const { $schema: _dialect, ...schema } = z.toJSONSchema(args, { io: "input", unrepresentable: "any" });
      expect(tool.inputSchema).toEqual({ ...schema, type: "object" });
    }
    expect(commands.map((c) => c.name)).toEqual(expect.arrayContaining(["script.load", "script.list", "runtime.step", "editor.scripts.check", "editor.scripts.load"]));
    // An agent reads what each argument is from the schema.
    for (const name of ["script.load", "runtime.step", "runtime.emit", "script.types", "editor.scripts.save", "editor.scripts.panel", "editor.scripts.live_reload"]) {
      const properties = tools.find((t) => t.command === name)!.tool.inputSchema.properties as Record<string, { description?: string }>;
      for (const [field, schema] of Object.entries(properties)) expect(schema.description, `${name} ${field}`).toMatch(/\w/);
    }
    expect(tools.find((t) => t.command === "script.types")!.tool.inputSchema.properties).toMatchObject({ format: { enum: ["ts", "py", "md", "json"] } });
  });
});

describe("playfield-scripts mcp", () => {
  it("should answer tools/list with every command and run them: load a script, step, list, check", async () => {
    const project = projectWith({ "scripts/door.js": "export default { init() { return { open: false } } }" });
    const client = await mcpClient(process.execPath, [BIN, "mcp", "--manual-ticks", "--project", project]);
    const { tools } = await client.listTools();
    const expected = editorFor(projectWith({})).runtime.commands.list().map((c) => toolName(c.name));
    expect(tools.map((t) => t.name)).toEqual(expected);
    expect(tools.find((t) => t.name === "script_load")?.inputSchema).toMatchObject({ type: "object", required: ["name", "source"] });

    expect(json(await client.callTool({ name: "script_load", arguments: { name: "counter", source: COUNTER } }))).toEqual({ queued: "counter", applies: "next fixed tick" });
    expect(json(await client.callTool({ name: "editor_scripts_load", arguments: { name: "door" } }))).toEqual({ queued: "door", applies: "next fixed tick" });
    expect(json(await client.callTool({ name: "runtime_step", arguments: { ticks: 3 } }))).toMatchObject({ tick: 3 });
    const list = json(await client.callTool({ name: "script_list", arguments: {} })) as { tick: number; scripts: { name: string; faults: number }[]; log: string[] };
    expect(list.tick).toBe(3);
    expect(list.scripts.map((s) => [s.name, s.faults])).toEqual([["counter", 0], ["door", 0]]);
    expect(list.log).toEqual(["[tick 1] loaded counter", "[tick 1] loaded door"]);
    const check = json(await client.callTool({ name: "editor_scripts_check", arguments: {} })) as { ok: boolean; report: string[] };
    expect(check.ok).toBe(true);
    expect(check.report).toContain("compile scripts/door.js: ok");

    const refused = await client.callTool({ name: "script_load", arguments: { name: "x" } });
    expect(refused.isError).toBe(true);
    expect(json(refused)).toEqual({ code: "invalid_argument", message: "script.load: source: required argument missing" });
    const unknown = await client.callTool({ name: "script_nothing", arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(json(unknown)).toEqual({ code: "not_found", message: "unknown tool: script_nothing" });
  }, 60_000);
});

describe("playfield-scripts mcp with hostile input", () => {
  it("should answer what it can of malformed lines and go on serving, ending when its input ends", async () => {
    const child = spawn(process.execPath, [BIN, "mcp", "--manual-ticks"], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const rpc = (id: number, method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
    child.stdin.write([
      "not json",
      "[[[[[[[[[[",
      "[".repeat(100_000) + "]".repeat(100_000),
      JSON.stringify({ jsonrpc: "2.0" }),
      rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }),
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"runtime_emit","arguments":{"event":"e","data":${"[".repeat(10_000)}${"]".repeat(10_000)}}}}`,
      rpc(3, "tools/call", { name: "script_load", arguments: "nope" }),
      rpc(4, "tools/call", { name: "__proto__", arguments: {} }),
      rpc(5, "no/such/method", {}),
      rpc(6, "tools/list", {}),
    ].join("\n") + "\n");
    const answered = async (id: number) => {
      for (let i = 0; i < 600 && !out.split("\n").some((l) => l.includes(`"id":${id}`)); i++) await new Promise((r) => setTimeout(r, 50));
      return JSON.parse(out.split("\n").find((l) => l.includes(`"id":${id}`))!) as { result?: { isError?: boolean; content?: { text: string }[]; tools?: { name: string }[] }; error?: { code: number } };
    };
    expect((await answered(6)).result?.tools?.map((t) => t.name)).toEqual(expect.arrayContaining(["script_load", "script_list", "runtime_step"]));
    expect((await answered(2)).result?.isError).toBe(true);
    expect(JSON.parse((await answered(2)).result!.content![0]!.text)).toEqual({ code: "invalid_argument", message: "runtime.emit: data: nested deeper than 64 levels" });
    expect((await answered(3)).error?.code ?? (await answered(3)).result?.isError).toBeTruthy();
    expect((await answered(4)).result?.isError).toBe(true);
    expect((await answered(5)).error?.code).toBe(-32601);
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);
});

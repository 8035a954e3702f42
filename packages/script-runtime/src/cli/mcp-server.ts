import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ScriptRuntimeError } from "../errors.js";
import type { ScriptRuntime } from "../runtime/create-script-runtime.js";

/** One command as an MCP tool, with the command it runs. */
export interface CommandTool {
  tool: Tool;
  command: string;
}

/**
 * A command's tool name: its name with `.` as `_` (`script.load` →
 * `script_load`), since several agents' model APIs take tool names of
 * letters, digits, `_` and `-` only.
 */
export const toolName = (command: string): string => command.replaceAll(".", "_");

/**
 * Every command of the runtime's registry as an MCP tool: its name, its
 * summary as the description and its zod argument schema as the input
 * schema (JSON Schema of what the command accepts). Derived at each call,
 * so commands registered later (the editor's) are there too.
 */
export function commandTools(runtime: ScriptRuntime): CommandTool[] {
  const tools = runtime.commands.list().map(({ name, summary, args }): CommandTool => {
    const { $schema: _dialect, ...schema } = z.toJSONSchema(args, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    return {
      command: name,
      tool: {
        name: toolName(name),
        title: name,
        description: `The \`${name}\` command. ${summary}`,
        inputSchema: { ...schema, type: "object" },
      },
    };
  });
  const names = new Set(tools.map((t) => t.tool.name));
  if (names.size !== tools.length) throw new Error("two commands share one MCP tool name");
  return tools;
}

/** Runs the tool call `name` with `args`: the command's result as JSON text, or its error with `isError`. */
export async function callCommandTool(runtime: ScriptRuntime, name: string, args: unknown): Promise<CallToolResult> {
  const found = commandTools(runtime).find((t) => t.tool.name === name);
  if (!found) return { isError: true, content: [{ type: "text", text: JSON.stringify({ code: "not_found", message: `unknown tool: ${name}` }) }] };
  const outcome = await runtime.dispatch(found.command, args ?? {});
  if (!outcome.ok) return { isError: true, content: [{ type: "text", text: JSON.stringify(outcome.error) }] };
  try {
    return { content: [{ type: "text", text: JSON.stringify(outcome.result ?? null) }] };
  } catch (error) {
    // Whatever the scripts did, every call gets its answer.
    return { isError: true, content: [{ type: "text", text: JSON.stringify(ScriptRuntimeError.from(error).toJSON()) }] };
  }
}

/** Options of {@link serveMcp}. */
export interface McpServeOptions {
  stdin: Readable;
  stdout: Writable;
  /** Called once when the client goes away (stdin ends or the transport closes). */
  onClose: () => void;
}

/**
 * Serves the runtime's commands as MCP tools over stdio (newline-delimited
 * JSON-RPC): `tools/list` answers every command, `tools/call` runs one.
 * Nothing else may write to `stdout` meanwhile.
 */
export async function serveMcp(runtime: ScriptRuntime, options: McpServeOptions): Promise<void> {
  const server = new Server(
    { name: "playfield-scripts", version: packageVersion() },
    {
      capabilities: { tools: {} },
      instructions: "Playfield's script runtime: load, pause, resume and unload scripts, step ticks, read the list and log, "
        + "and act on the project's script files (editor_scripts_*). Each tool is one command of docs/scripts.md and docs/script-editor.md.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: commandTools(runtime).map((t) => t.tool) }));
  server.setRequestHandler(CallToolRequestSchema, (request) => callCommandTool(runtime, request.params.name, request.params.arguments));
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    options.onClose();
  };
  const transport = new StdioServerTransport(options.stdin, options.stdout);
  server.onclose = close;
  // The stdio transport does not watch for the end of its input.
  options.stdin.once("end", () => { void server.close().finally(close); });
  await server.connect(transport);
}

/** This package's version, from the nearest package.json up from this module (src/cli/ or dist/). */
function packageVersion(): string {
  for (let dir = new URL("./", import.meta.url), i = 0; i < 4; dir = new URL("../", dir), i++) {
    try {
      const pkg = JSON.parse(readFileSync(new URL("package.json", dir), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "@playfield/script-runtime" && pkg.version) return pkg.version;
    } catch {
      // not here: one folder up
    }
  }
  return "0.0.0";
}

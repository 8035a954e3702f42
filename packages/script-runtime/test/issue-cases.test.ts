import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { BIN, runCli } from "./cli-process.js";
import { COUNTER } from "./helpers.js";
import { mcpClient } from "./mcp-client.js";

/** The hostile scripts of issue 30, each as the command that loads it, beside a counter. */
const BIG = "(() => { let s = 'x'; for (let i = 0; i < 23; i++) s += s; return s })()";
const LOADS = [
  { name: "counter", source: COUNTER },
  { name: "array_like", source: "export default { onTick() { [].indexOf.call({ length: 2 ** 53 - 1 }, 1) } }" },
  { name: "bigint", source: "export default { onTick() { const x = 1n << 998000n; for (let i = 0; i < 10; i++) String(x) } }", player: "p1", roles: [], owner: true },
  { name: "getter", source: "export default { onTick() { throw Object.defineProperty(new Error('x'), 'name', { get() { for (let i = 0; i < 5000000; i++) {} return 'N' } }) } }" },
  ...Array.from({ length: 5 }, () => ({ name: "loud", source: `throw new Error(${BIG})` })),
  { name: "regex", language: "py", source: "import re\ndef on_tick(self, dt):\n    re.match('(a|b)*c', 'a' * 1570 + 'c')\n" },
  { name: "forger", source: "export default { onTick() { let t = 0; Array.prototype.toJSON = function () { return this.length === 4 ? [this[0], this[1], this[2], (t += 5000)] : Array.from(this) }; for (let i = 0; i < 10; i++) { try { game.get('world-1').announce('hi') } catch (e) {} } } }" },
];
const COMMANDS = [...LOADS.map((args) => ({ command: "script.load", args })), { command: "runtime.step", args: { ticks: 3 } }, { command: "script.list" }];

interface Listed { chain: string; scripts: { name: string; faults: number; last_fault: string | null; fuel_used: number }[]; log: string[] }

describe("issue 30's cases as commands", () => {
  it("should answer every command quickly through the command line, fault the hostile scripts, keep the counter's ticks and give byte-identical lists in two processes", async () => {
    const started = performance.now();
    const [first, second] = await Promise.all([runCli(COMMANDS), runCli(COMMANDS)]);
    expect(performance.now() - started).toBeLessThan(45_000);
    expect(first).toHaveLength(COMMANDS.length);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    const list = (first.at(-1) as { result: Listed }).result;
    const by = new Map(list.scripts.map((s) => [s.name, s]));
    expect(by.get("counter")).toMatchObject({ faults: 0 });
    expect(by.get("array_like")).toMatchObject({ faults: 3, last_fault: "onTick: out of fuel (fuel_per_tick 200000)" });
    expect(by.has("bigint")).toBe(false);
    expect(list.log.some((l) => l.includes("refused bigint") && l.includes("BigInt literal"))).toBe(true);
    expect(by.get("getter")?.last_fault).toBe("onTick: Error: x");
    expect(by.get("regex")?.last_fault).toMatch(/^on_tick: the engine's calls nested deeper than 1000 levels/);
    expect(list.log.filter((l) => l.includes("loud did not load")).every((l) => l.length < 4200)).toBe(true);
    expect(JSON.stringify(list).length).toBeLessThan(64 * 1024);
  }, 90_000);

  it("should answer the same over MCP", async () => {
    const client = await mcpClient(process.execPath, [BIN, "mcp", "--manual-ticks"]);
    for (const { command, args } of COMMANDS) {
      const answer = await client.callTool({ name: command.replaceAll(".", "_"), arguments: args }) as CallToolResult;
      expect(answer.isError ?? false, command).toBe(false);
    }
    const cli = await runCli(COMMANDS);
    const mcpList = await client.callTool({ name: "script_list", arguments: {} }) as CallToolResult;
    expect((mcpList.content[0] as { text: string }).text).toBe(JSON.stringify((cli.at(-1) as { result: unknown }).result));
  }, 90_000);
});

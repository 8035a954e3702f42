import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach } from "vitest";

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** An MCP client (the SDK's own) connected to `command args` over stdio, closed after the test. */
export async function mcpClient(command: string, args: string[], cwd?: string): Promise<Client> {
  const client = new Client({ name: "playfield-test", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, cwd, stderr: "pipe" }));
  clients.push(client);
  return client;
}

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMemoryServer, type MemoryServer, type ServerOptions } from "../create-memory-server.js";
import { nodeHttpAdapter } from "./node-http-adapter.js";

export interface StartServerOptions extends ServerOptions {
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

/** A listening Playfield server. */
export interface StartedServer extends MemoryServer {
  /** `http://127.0.0.1:8080` */
  url: string;
  http: Server;
  close(): Promise<void>;
}

/**
 * Starts an in-memory Playfield server listening on a port.
 *
 * @example
 * const server = await startServer({ port: 0 });
 * const client = createClient({ baseUrl: server.url });
 * await server.close();
 */
export async function startServer(options: StartServerOptions = {}): Promise<StartedServer> {
  const { port = 8080, host = "127.0.0.1", ...serverOptions } = options;
  const memory = createMemoryServer(serverOptions);
  const http = createServer(nodeHttpAdapter(memory));
  http.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    ...memory,
    url: `http://${shownHost}:${address.port}`,
    http,
    close: () => new Promise<void>((resolve, reject) => {
      http.close((error) => (error ? reject(error) : resolve()));
      http.closeAllConnections();
    }),
  };
}

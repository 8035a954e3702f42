import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMemoryServer, type MemoryServer, type ServerOptions } from "../create-server.js";
import { sweepSessions } from "../services/session/roster.js";
import { nodeHttpAdapter } from "./node-http-adapter.js";
import { websocketAdapter, type WebSocketAdapter, type WebSocketAdapterOptions } from "./websocket-adapter.js";

export interface StartServerOptions extends ServerOptions {
  /** Default 8080; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The realtime WebSocket at `GET /realtime` (ping interval, backpressure limits). */
  websocket?: WebSocketAdapterOptions;
  /** How often silent session members are swept out. Default 15 000 ms; 0 turns the sweep off (the session methods still drop them as they go). */
  sessionSweepMs?: number;
}

/** A listening Playfield server. */
export interface StartedServer extends MemoryServer {
  /** `http://127.0.0.1:8080` */
  url: string;
  http: Server;
  /** The realtime WebSocket server (`ws://…/realtime`). */
  realtime: WebSocketAdapter;
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
  const { port = 8080, host = "127.0.0.1", websocket, sessionSweepMs = 15_000, ...serverOptions } = options;
  const memory = createMemoryServer(serverOptions);
  const http = createServer(nodeHttpAdapter(memory));
  const realtime = websocketAdapter(http, memory.deps, websocket);
  http.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(port, host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  // Silent members are dropped on a timer too, so rosters shrink while nobody calls.
  const sweeper = sessionSweepMs > 0
    ? setInterval(() => { sweepSessions(memory.deps).catch((error: unknown) => memory.deps.onInternalError(error)); }, sessionSweepMs)
    : null;
  sweeper?.unref();
  return {
    ...memory,
    url: `http://${shownHost}:${address.port}`,
    http,
    realtime,
    async close() {
      if (sweeper) clearInterval(sweeper);
      await realtime.close();
      await new Promise<void>((resolve, reject) => {
        http.close((error) => (error ? reject(error) : resolve()));
        http.closeAllConnections();
      });
    },
  };
}

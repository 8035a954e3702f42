import { listen, type ListenOptions, type StartedServer as Listening } from "@playfield/server/node";
import { createMemoryServer, type MemoryServer, type MemoryServerOptions } from "./create-memory-server.js";

/** Options of `startServer`: the in-memory server's and how it listens. */
export interface StartServerOptions extends MemoryServerOptions, ListenOptions {}

/** A listening in-memory server. */
export type StartedServer = Listening<MemoryServer>;

/**
 * Starts an in-memory Playfield server listening on a port.
 *
 * @example
 * const server = await startServer({ port: 0 });
 * const client = createClient({ baseUrl: server.url });
 * await server.close();
 */
export async function startServer(options: StartServerOptions = {}): Promise<StartedServer> {
  const { port, host, websocket, sessionSweepMs, admin, ...serverOptions } = options;
  return listen(createMemoryServer(serverOptions), { port, host, websocket, sessionSweepMs, ...(admin && { admin }) });
}

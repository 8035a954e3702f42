import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { nodeHttpAdapter } from "./node-http-adapter.js";

/** The admin listener on its port. */
export interface AdminListener {
  /** `http://127.0.0.1:8081` */
  url: string;
  http: HttpServer;
  /** Stops accepting, lets requests under way finish (cut after `timeoutMs`, default 1000 ms). */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Puts the admin listener's handler (`createAdminHandler`) on a port of its
 * own: metrics, the admin API and the console are served here, never on
 * the public port. It binds 127.0.0.1 unless told otherwise: only this
 * machine (or a tunnel, or a scraper beside it) reaches it.
 *
 * @example
 * const admin = await listenAdmin(createAdminHandler({ routes: [metrics.route] }), { port: 8081 });
 */
export async function listenAdmin(handle: (request: Request) => Promise<Response>, options: { port: number; host?: string }): Promise<AdminListener> {
  const host = options.host ?? "127.0.0.1";
  const http = createHttpServer(nodeHttpAdapter({ handle }));
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    http,
    async close(timeoutMs = 1000) {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      const timer = setTimeout(() => http.closeAllConnections(), timeoutMs);
      await closed;
      clearTimeout(timer);
    },
  };
}

/** The admin port's error when it is taken: which port, and how to choose another. */
export class AdminPortInUseError extends Error {
  override readonly name = "AdminPortInUseError";
  constructor(readonly port: number, readonly host: string) {
    super(`the admin port ${port} on ${host} is already in use`);
  }
}

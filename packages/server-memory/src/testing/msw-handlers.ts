import { http, type HttpHandler } from "msw";
import type { FetchHandler } from "@playfield/server";

/**
 * msw request handlers that answer every request under `baseUrl` with an
 * in-memory server, so an app's own `fetch` reaches it with no port, in Node
 * or in a browser.
 *
 * @example
 * const server = createMemoryServer();
 * const worker = setupServer(...mswHandlers(server, "https://api.playfield.test"));
 * worker.listen({ onUnhandledRequest: "error" });
 */
export function mswHandlers(server: { handle: FetchHandler }, baseUrl: string): HttpHandler[] {
  const base = baseUrl.replace(/\/+$/, "");
  return [http.all(`${base}/*`, ({ request }) => server.handle(request))];
}

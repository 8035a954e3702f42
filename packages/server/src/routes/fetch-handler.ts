import type { Responder } from "./respond.js";
import type { RouteAnswer, RouteRequest } from "./route.js";

/** What an adapter knows about a request beyond the Request itself. */
export interface RequestEnv {
  clientAddress?: string | null;
}

/** A Playfield server as a fetch handler: `(Request) => Promise<Response>`. */
export type FetchHandler = (request: Request, env?: RequestEnv) => Promise<Response>;

/** An answer as a Response. */
export function toResponse(answer: RouteAnswer): Response {
  // A 204 or 304 may have no body at all, not even an empty one.
  const body = answer.status === 204 || answer.status === 304 ? null : answer.body;
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/** A route request read from a Request; its methods live on the prototype, so a call builds no closures. */
class FetchRequest implements RouteRequest {
  readonly method: string;
  readonly path: string;
  constructor(private readonly request: Request, private readonly url: URL, readonly clientAddress: string | null) {
    this.method = request.method;
    this.path = url.pathname;
  }
  get query(): URLSearchParams {
    return this.url.searchParams;
  }
  header(name: string): string | null {
    return this.request.headers.get(name);
  }
  text(): Promise<string> {
    return this.request.text();
  }
}

/**
 * The server as a fetch handler: each Request read as a route request and
 * answered by the server's responder (routes/respond.ts).
 *
 * @example
 * const handle = createFetchHandler(respond);
 * const response = await handle(new Request("http://localhost/healthz"));
 */
export function createFetchHandler(respond: Responder): FetchHandler {
  return async (request, env = {}) => toResponse(await respond(new FetchRequest(request, new URL(request.url), env.clientAddress ?? null)));
}

import type { IncomingCall } from "../rpc/rpc-handler.js";

/**
 * A request as the server's routes read it. Each adapter fills it from its
 * own request type (a WHATWG `Request`, Node's `IncomingMessage`), so routes
 * are written once and the Node adapter builds no `Request`, `Headers` or
 * `URL` to serve them.
 */
export interface RouteRequest extends IncomingCall {
  /** The URL's path, percent-encoded as it came, without the query: `/healthz`. */
  path: string;
  /** The URL's query parameters (made when first read). */
  readonly query: URLSearchParams;
}

/** What a route answers: status, headers (lowercase names) and the body, null for none. */
export interface RouteAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer> | null;
}

/** A non-RPC route (health, keys, content): its answer, or null to pass to the next. */
export type RawRoute = (request: RouteRequest) => Promise<RouteAnswer | null> | RouteAnswer | null;

/**
 * A JSON answer of `value`.
 *
 * @example
 * return jsonAnswer({ status: "ok" });
 */
export function jsonAnswer(value: unknown, status = 200, headers: Record<string, string> = {}): RouteAnswer {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value) };
}

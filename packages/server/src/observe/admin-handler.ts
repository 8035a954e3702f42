import { Code, PlayfieldError, codeToHttpStatus, fail, toErrorJson } from "@playfield/core";
import { levelOfAnswer, redactCredential, type Logger } from "./logger.js";
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id.js";

/**
 * One route of the admin listener (metrics, the admin API, the console): its
 * answer to a request, or undefined to pass it to the next route. A plain
 * fetch-style function, so anything that answers `Request`s mounts here.
 *
 * @example
 * const hello: AdminRoute = async (request) =>
 *   new URL(request.url).pathname === "/hello" ? new Response("hello") : undefined;
 */
export type AdminRoute = (request: Request) => Promise<Response | undefined>;

/** Options of the admin listener's handler. */
export interface AdminHandlerOptions {
  /** Asked in order; the first Response answers. None: 404. */
  routes: readonly AdminRoute[];
  /** A line per request (debug), failures at error, as the public port's. */
  log?: Logger;
  /** Told of a route that threw (it answers `internal`). Default: an `error` line of `log`, else console.error. */
  onInternalError?: (error: unknown, context?: { requestId?: string }) => void;
}

/**
 * The admin listener as a fetch handler: each request to the routes in
 * order, the first Response wins, else 404 `not_found`. Every answer
 * carries `x-request-id`, as the public port's do. Node puts it on a port
 * with `listenAdmin` (`@playfield/server/node`); tests call it directly.
 *
 * @example
 * const admin = createAdminHandler({ routes: [metrics.route] });
 * const response = await admin(new Request("http://admin/metrics"));
 */
export function createAdminHandler(options: AdminHandlerOptions): (request: Request) => Promise<Response> {
  const { routes, log } = options;
  const onInternalError = options.onInternalError ?? (log
    ? (error: unknown, context?: { requestId?: string }) => log.error({ err: error, reqId: context?.requestId }, "internal error")
    : (error: unknown) => console.error("playfield: internal error on the admin listener", error));
  return async (request) => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers.get(REQUEST_ID_HEADER));
    const path = new URL(request.url).pathname;
    let response: Response | undefined;
    let code = "ok";
    try {
      for (const route of routes) {
        response = await route(request);
        if (response !== undefined) break;
      }
    } catch (error) {
      onInternalError(error, { requestId });
      response = errorResponse(new PlayfieldError(Code.Internal, "internal error"));
      code = Code.Internal;
    }
    if (response === undefined) {
      response = errorResponse(fail.notFound(`no route for ${request.method} ${path} on the admin listener`));
      code = Code.NotFound;
    } else if (code === "ok" && response.status >= 400) {
      // A route's own refusal: its code is in its body, which is the route's; the line names the status.
      code = `http_${response.status}`;
    }
    // A route's Response may have immutable headers (Response.error(), a fetched one): copy into one that is ours.
    const answered = new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
    answered.headers.set(REQUEST_ID_HEADER, requestId);
    if (log !== undefined) {
      const level = levelOfAnswer(code, answered.status);
      if (log.isLevelEnabled(level)) {
        const authorization = request.headers.get("authorization");
        log[level]({
          reqId: requestId, admin: true, status: answered.status, code, ms: Math.round((performance.now() - started) * 100) / 100,
          req: { method: request.method, path, ...(authorization !== null && { authorization: redactCredential(authorization) }) },
        }, "admin request");
      }
    }
    return answered;
  };
}

function errorResponse(error: PlayfieldError): Response {
  return new Response(JSON.stringify(toErrorJson(error)), { status: codeToHttpStatus[error.code], headers: { "content-type": "application/json" } });
}

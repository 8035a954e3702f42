import { Code, PlayfieldError, fail } from "@playfield/core";
import { levelOfAnswer, requestFields, type Logger } from "../observe/logger.js";
import { REQUEST_ID_HEADER, requestIdOf } from "../observe/request-id.js";
import type { MethodMetrics, ServerMetrics } from "../observe/server-metrics.js";
import { errorAnswer, type InternalErrorReporter, type RpcHandler } from "../rpc/rpc-handler.js";
import type { Route } from "../rpc/router.js";
import type { Cors } from "./cors.js";
import type { RawRoute, RouteAnswer, RouteRequest } from "./route.js";

/** The server as one function of a plain request: what every adapter calls. */
export type Responder = (request: RouteRequest) => Promise<RouteAnswer>;

/** Who watches the answers: metrics per API method, and a log line per request. Both optional. */
export interface ResponderObservers {
  metrics?: ServerMetrics;
  log?: Logger;
}

const RPC_LIKE = /^\/[\w.]+\/\w+$/;

/**
 * The server's one route table: preflights answered on every path, API
 * methods to the RPC layer, other paths to the raw routes, anything else
 * `not_found` (or `unimplemented` for a path shaped like a method). Every
 * answer carries `x-request-id` (the caller's when well formed, else a new
 * one). CORS headers go on answers to requests that carry an `Origin`, and
 * `Vary: Origin` on every GET (content and keys are cached, whoever asked first).
 */
export function createResponder(
  rpc: RpcHandler, rawRoutes: RawRoute[], cors: Cors, onInternalError: InternalErrorReporter, observers: ResponderObservers = {},
): Responder {
  const { metrics, log } = observers;
  // Made at a method's first call, so a call looks its recorder up on its route, not by label.
  const recorders = new Map<Route, MethodMetrics>();
  const recorderOf = (route: Route) => {
    let recorder = recorders.get(route);
    if (recorder === undefined) recorders.set(route, recorder = metrics!.method(route.method.service, route.method.name));
    return recorder;
  };

  async function viaRawRoutes(request: RouteRequest, requestId: string): Promise<RouteAnswer> {
    for (const raw of rawRoutes) {
      let answer: RouteAnswer | null;
      try {
        answer = await raw(request);
      } catch (error) {
        // A route's bug answers `internal`, like an RPC's: never a rejected call.
        onInternalError(error, { requestId });
        return errorAnswer(new PlayfieldError(Code.Internal, "internal error"));
      }
      if (answer) return answer;
    }
    return errorAnswer(RPC_LIKE.test(request.path)
      ? new PlayfieldError(Code.Unimplemented, `${request.path.slice(1)} is not a method of this API`)
      : fail.notFound(`no route for ${request.method} ${request.path}`));
  }

  /** The answer as sent: CORS's headers where they belong (a preflight's answer has its own), and the request id. */
  function finish(request: RouteRequest, origin: string | null, requestId: string, answer: RouteAnswer): RouteAnswer {
    const plain = request.method === "OPTIONS" || (origin === null && request.method !== "GET");
    const headers = plain ? { ...answer.headers } : cors.withHeaders(answer.headers, origin);
    headers[REQUEST_ID_HEADER] = requestId;
    return { status: answer.status, headers, body: answer.body };
  }

  /** Metrics and the log line of one answer. */
  function observe(request: RouteRequest, route: Route | undefined, requestId: string, started: number, answer: RouteAnswer): void {
    const ms = performance.now() - started;
    const code = (answer as { code?: string }).code ?? (answer.status < 400 ? "ok" : "unknown");
    if (route !== undefined && metrics !== undefined) recorderOf(route).call(code, ms / 1000);
    if (log === undefined) return;
    const level = levelOfAnswer(code, answer.status);
    if (!log.isLevelEnabled(level)) return;
    const method = route === undefined ? undefined : route.method.path.slice(1);
    log[level]({ reqId: requestId, ...(method && { method }), status: answer.status, code, ms: Math.round(ms * 100) / 100, req: requestFields(request) }, method ? "call" : "request");
  }

  // One reaction per request (the header is added where CORS's are); measuring only when something watches.
  const watched = metrics !== undefined || log !== undefined;
  return (request) => {
    const requestId = requestIdOf(request.header(REQUEST_ID_HEADER));
    const origin = request.header("origin");
    const started = watched ? performance.now() : 0;
    let route: Route | undefined;
    let answer: Promise<RouteAnswer>;
    if (request.method === "OPTIONS") {
      answer = Promise.resolve(cors.preflight({ origin, privateNetwork: request.header("access-control-request-private-network") === "true" }));
    } else {
      route = rpc.route(request.path);
      answer = route ? rpc.handle(route, request, requestId) : viaRawRoutes(request, requestId);
    }
    return answer.then((made) => {
      if (watched) observe(request, route, requestId, started, made);
      return finish(request, origin, requestId, made);
    });
  };
}

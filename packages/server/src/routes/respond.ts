import { Code, PlayfieldError, fail } from "@playfield/core";
import { errorAnswer, type RpcHandler } from "../rpc/rpc-handler.js";
import type { Cors } from "./cors.js";
import type { RawRoute, RouteAnswer, RouteRequest } from "./route.js";

/** The server as one function of a plain request: what every adapter calls. */
export type Responder = (request: RouteRequest) => Promise<RouteAnswer>;

const RPC_LIKE = /^\/[\w.]+\/\w+$/;

/**
 * The server's one route table: preflights answered on every path, API
 * methods to the RPC layer, other paths to the raw routes, anything else
 * `not_found` (or `unimplemented` for a path shaped like a method). CORS
 * headers go on answers to requests that carry an `Origin`, and
 * `Vary: Origin` on every GET (content and keys are cached, whoever asked first).
 */
export function createResponder(rpc: RpcHandler, rawRoutes: RawRoute[], cors: Cors, onInternalError: (error: unknown) => void): Responder {
  async function viaRawRoutes(request: RouteRequest): Promise<RouteAnswer> {
    for (const raw of rawRoutes) {
      let answer: RouteAnswer | null;
      try {
        answer = await raw(request);
      } catch (error) {
        // A route's bug answers `internal`, like an RPC's: never a rejected call.
        onInternalError(error);
        return errorAnswer(new PlayfieldError(Code.Internal, "internal error"));
      }
      if (answer) return answer;
    }
    return errorAnswer(RPC_LIKE.test(request.path)
      ? new PlayfieldError(Code.Unimplemented, `${request.path.slice(1)} is not a method of this API`)
      : fail.notFound(`no route for ${request.method} ${request.path}`));
  }

  const withCors = (origin: string | null) => (answer: RouteAnswer): RouteAnswer =>
    ({ status: answer.status, headers: cors.withHeaders(answer.headers, origin), body: answer.body });

  // Not async: an API call without an Origin (every call from a game or a server) takes no turn here.
  return (request) => {
    const origin = request.header("origin");
    if (request.method === "OPTIONS") {
      return Promise.resolve(cors.preflight({ origin, privateNetwork: request.header("access-control-request-private-network") === "true" }));
    }
    const method = rpc.route(request.path);
    const answer = method ? rpc.handle(method, request) : viaRawRoutes(request);
    return origin === null && request.method !== "GET" ? answer : answer.then(withCors(origin));
  };
}

import { Code, PlayfieldError, fail } from "@playfield/core";
import { errorAnswer, type Answer, type IncomingCall, type RpcHandler } from "../rpc/rpc-handler.js";
import { bodyResponse } from "./known-body.js";

/** What an adapter knows about a request beyond the Request itself. */
export interface RequestEnv {
  clientAddress?: string | null;
}

/** A Playfield server as a fetch handler: `(Request) => Promise<Response>`. */
export type FetchHandler = (request: Request, env?: RequestEnv) => Promise<Response>;

/** Extra non-RPC routes (health, keys, content): answer a Response, or null to pass. */
export type RawRoute = (request: Request, url: URL) => Promise<Response | null> | Response | null;

export function toResponse(answer: Answer): Response {
  // A 204 (a preflight's answer) may have no body at all, not even an empty one.
  return bodyResponse(answer.status === 204 ? null : answer.body, { status: answer.status, headers: answer.headers });
}

/** A call read from a Request; its methods live on the prototype, so a call builds no closures. */
class FetchCall implements IncomingCall {
  readonly method: string;
  constructor(private readonly request: Request, readonly clientAddress: string | null) {
    this.method = request.method;
  }
  header(name: string): string | null {
    return this.request.headers.get(name);
  }
  text(): Promise<string> {
    return this.request.text();
  }
}

/**
 * The server as a fetch handler: API methods go to the RPC layer, other paths
 * to the raw routes; anything else is `not_found` (or `unimplemented` for a
 * path shaped like a method).
 */
export function createFetchHandler(rpc: RpcHandler, rawRoutes: RawRoute[] = [], onInternalError: (error: unknown) => void = () => {}): FetchHandler {
  return async (request, env = {}) => {
    const url = new URL(request.url);
    const route = rpc.route(url.pathname);
    if (route) {
      const answer = await rpc.handle(route, new FetchCall(request, env.clientAddress ?? null));
      return toResponse(answer);
    }
    for (const raw of rawRoutes) {
      let response: Response | null;
      try {
        response = await raw(request, url);
      } catch (error) {
        // A route's bug answers `internal`, like an RPC's: never a rejected fetch.
        onInternalError(error);
        return toResponse(errorAnswer(new PlayfieldError(Code.Internal, "internal error")));
      }
      if (response) return response;
    }
    const rpcLike = /^\/[\w.]+\/\w+$/.test(url.pathname);
    return toResponse(errorAnswer(rpcLike
      ? new PlayfieldError(Code.Unimplemented, `${url.pathname.slice(1)} is not a method of this API`)
      : fail.notFound(`no route for ${request.method} ${url.pathname}`)));
  };
}

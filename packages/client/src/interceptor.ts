import type { MethodInfo } from "./api-table.js";

/** One call on its way to the server, as interceptors see it. */
export interface UnaryRequest {
  /** The method called. */
  method: MethodInfo;
  /** Full URL: `{baseUrl}/svc.platform.v1.<Service>/<Method>`. */
  url: string;
  /** Request headers; `Authorization` is set by the client's token handling. */
  header: Headers;
  /** The request message, sent as its JSON. */
  message: Record<string, unknown>;
  /** Aborts the call: on the caller's signal, or at its deadline. */
  signal: AbortSignal;
}

/** A successful answer: the message is decoded, every field present. */
export interface UnaryResponse {
  status: number;
  header: Headers;
  message: Record<string, unknown>;
}

/** Sends a request and resolves with its answer, or rejects with a `PlayfieldError`. */
export type UnaryFn = (request: UnaryRequest) => Promise<UnaryResponse>;

/**
 * An interceptor wraps the next step of every call: log, add headers, retry,
 * measure. The first interceptor of a list is the outermost.
 *
 * @example
 * const logger: Interceptor = (next) => async (req) => {
 *   console.log("calling", req.method.path);
 *   return await next(req);
 * };
 */
export type Interceptor = (next: UnaryFn) => UnaryFn;

/** Wraps `fn` in `interceptors`, the first one outermost (connect-es order). */
export function applyInterceptors(fn: UnaryFn, interceptors: readonly Interceptor[]): UnaryFn {
  return interceptors.reduceRight<UnaryFn>((next, interceptor) => interceptor(next), fn);
}

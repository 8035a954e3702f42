import type { Clock } from "@playfield/core";
import { Code, PlayfieldError, fillMessage } from "@playfield/core/wire";
import { readApiTable, type MethodInfo } from "./api-table.js";
import type { CallOptions } from "./call-options.js";
import type { PlayfieldClient } from "./client-types.js";
import { createDeadline } from "./deadline.js";
import { createFetchTransport } from "./fetch-transport.js";
import { applyInterceptors, type Interceptor, type UnaryFn, type UnaryRequest } from "./interceptor.js";
import { createMemoryTokenStore, type TokenStore } from "./token-store.js";
import { createTokenSession } from "./token-session.js";

/** Options of `createClient`. */
export interface ClientOptions {
  /** Where the API is served: `https://api.example.com` (calls go to `{baseUrl}/svc.platform.v1.<Service>/<Method>`). */
  baseUrl: string;
  /** The fetch to use; `globalThis.fetch` when left out. */
  fetch?: typeof globalThis.fetch;
  /** Sent as `x-svc-client`: the device label in the account's device list. */
  clientName?: string;
  /** Where tokens are kept between runs; in memory when left out. */
  tokenStore?: TokenStore;
  /** Default deadline of every call in milliseconds; none when left out or 0. */
  timeoutMs?: number;
  /** Wrap every call, the first outermost. They see each request sent, retries and refreshes included. */
  interceptors?: readonly Interceptor[];
  /** Where the time comes from, to tell when the access token expires; the system clock when left out. */
  clock?: Clock;
  /** Refresh this many milliseconds before the access token expires; 30 000 when left out. */
  refreshSkewMs?: number;
}

const systemClock: Clock = { now: () => Date.now() };

/**
 * Creates a Playfield API client: one typed method per API method, grouped by
 * service, with tokens kept and refreshed and every failure a `PlayfieldError`.
 *
 * @example
 * const client = createClient({ baseUrl: "https://api.example.com", clientName: "Web (Firefox)" });
 * await client.identity.signIn({ username: "ada", password: "correct horse" });
 * const me = await client.identity.getMe();
 */
export function createClient(options: ClientOptions): PlayfieldClient {
  const table = readApiTable();
  const baseUrl = options.baseUrl.replace(/\/+$/, "");

  const decode = (name: string, json: Record<string, unknown>) => {
    const shape = table.shapes[name];
    return shape ? fillMessage(table.shapes, shape, json) : json;
  };
  // What goes on the wire: the caller's interceptors, then fetch. Token
  // handling wraps it, and the refresh it makes goes through it too.
  const network: UnaryFn = applyInterceptors(createFetchTransport({ fetch: options.fetch, decode }), options.interceptors ?? []);

  const request = (method: MethodInfo, message: Record<string, unknown>, signal: AbortSignal, headers?: HeadersInit): UnaryRequest => {
    const header = new Headers(headers);
    header.set("content-type", "application/json");
    if (options.clientName) header.set("x-svc-client", options.clientName);
    return { method, url: baseUrl + method.path, header, message, signal };
  };

  const session = createTokenSession({
    store: options.tokenStore ?? createMemoryTokenStore(),
    clock: options.clock ?? systemClock,
    skewMs: options.refreshSkewMs ?? 30_000,
    async refresh(refreshToken) {
      const method = table.services.identity?.refresh;
      if (!method) throw new PlayfieldError(Code.Unimplemented, "the API table has no IdentityService.Refresh");
      // Shared by every call waiting on it, so no caller's signal ends it: only the client's deadline.
      const deadline = createDeadline(undefined, options.timeoutMs ?? 0);
      try {
        return await network(request(method, { refreshToken }, deadline.signal));
      } finally {
        deadline.dispose();
      }
    },
  });
  const send = session.interceptor(network);

  async function call(method: MethodInfo, message: Record<string, unknown> | undefined, callOptions: CallOptions = {}) {
    const deadline = createDeadline(callOptions.signal, callOptions.timeoutMs ?? options.timeoutMs ?? 0);
    try {
      const req = request(method, message ?? {}, deadline.signal, callOptions.headers);
      if (callOptions.token) req.header.set("authorization", `Bearer ${callOptions.token}`);
      return (await send(req)).message;
    } catch (reason) {
      throw PlayfieldError.from(reason);
    } finally {
      deadline.dispose();
    }
  }

  const client: Record<string, unknown> = { auth: session };
  for (const [serviceName, methods] of Object.entries(table.services)) {
    const service: Record<string, unknown> = {};
    for (const method of Object.values(methods)) {
      service[method.localName] = (message?: Record<string, unknown>, callOptions?: CallOptions) => call(method, message, callOptions);
    }
    client[serviceName] = service;
  }
  return client as PlayfieldClient;
}

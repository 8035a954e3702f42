import type { AdminMethodInput, AdminMethodOutput, AdminMethodSpec, AdminServiceDesc, AdminServices } from "@playfield/core";
import { PlayfieldError, fillMessage } from "@playfield/core/wire";
import { readApiTable, type MethodInfo } from "./api-table.js";
import type { CallOptions } from "./call-options.js";
import { createDeadline } from "./deadline.js";
import { createFetchTransport } from "./fetch-transport.js";
import { ENUMS, MESSAGES, SERVICES } from "./generated/admin-table.js";
import { applyInterceptors, type Interceptor } from "./interceptor.js";

/** Options of `createAdminClient`. */
export interface AdminClientOptions {
  /** Where the admin listener serves: `http://127.0.0.1:9100` (calls go to `{baseUrl}/svc.admin.v1.<Service>/<Method>`). */
  baseUrl: string;
  /** The fetch to use; `globalThis.fetch` when left out. */
  fetch?: typeof globalThis.fetch;
  /** An operator token to start with (one `operators.signIn` answered earlier). */
  token?: string;
  /** Default deadline of every call in milliseconds; none when left out or 0. */
  timeoutMs?: number;
  /** Wrap every call, the first outermost. */
  interceptors?: readonly Interceptor[];
}

/** One admin method on the client. */
export type AdminMethodCall<M extends AdminMethodSpec> = {} extends AdminMethodInput<M>
  ? (request?: AdminMethodInput<M>, options?: CallOptions) => Promise<AdminMethodOutput<M>>
  : (request: AdminMethodInput<M>, options?: CallOptions) => Promise<AdminMethodOutput<M>>;

/** Every method of one admin service, by local name: `admin.players.searchPlayers`. */
export type AdminServiceClient<S extends AdminServiceDesc> = { readonly [K in keyof S["methods"]]: AdminMethodCall<S["methods"][K]> };

/** The admin client: one property per admin service, and the operator token it holds. */
export type PlayfieldAdminClient = { readonly [K in keyof AdminServices]: AdminServiceClient<AdminServices[K]> } & {
  /** The operator token held: set by `operators.signIn`, cleared by `operators.signOut`. */
  readonly token: { get(): string | undefined; set(token: string | undefined): void };
};

/**
 * Creates a client of the admin API (the console is built on it): one typed
 * method per admin method, the operator token kept after `operators.signIn`,
 * every failure a `PlayfieldError`. Operator tokens are not refreshed: sign
 * in again when one expires.
 *
 * @example
 * const admin = createAdminClient({ baseUrl: "http://127.0.0.1:9100" });
 * await admin.operators.signIn({ username: "admin", password });
 * const { players } = await admin.players.searchPlayers({ query: "ada" });
 */
export function createAdminClient(options: AdminClientOptions): PlayfieldAdminClient {
  const table = readApiTable(SERVICES, MESSAGES, ENUMS);
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  let token = options.token;
  const decode = (name: string, json: Record<string, unknown>) => {
    const shape = table.shapes[name];
    return shape ? fillMessage(table.shapes, shape, json) : json;
  };
  const send = applyInterceptors(createFetchTransport({ fetch: options.fetch, decode }), options.interceptors ?? []);

  async function call(method: MethodInfo, message: Record<string, unknown> | undefined, callOptions: CallOptions = {}) {
    const deadline = createDeadline(callOptions.signal, callOptions.timeoutMs ?? options.timeoutMs ?? 0);
    try {
      const header = new Headers(callOptions.headers);
      header.set("content-type", "application/json");
      const bearer = callOptions.token ?? (method.auth === "operator" ? token : undefined);
      if (bearer) header.set("authorization", `Bearer ${bearer}`);
      const answer = (await send({ method, url: baseUrl + method.path, header, message: message ?? {}, signal: deadline.signal })).message;
      if (method.service === "svc.admin.v1.OperatorService" && method.name === "SignIn") token = answer.token as string;
      if (method.service === "svc.admin.v1.OperatorService" && method.name === "SignOut") token = undefined;
      return answer;
    } catch (reason) {
      throw PlayfieldError.from(reason);
    } finally {
      deadline.dispose();
    }
  }

  const client: Record<string, unknown> = { token: { get: () => token, set: (next: string | undefined) => { token = next; } } };
  for (const [serviceName, methods] of Object.entries(table.services)) {
    const service: Record<string, unknown> = {};
    for (const method of Object.values(methods)) {
      service[method.localName] = (message?: Record<string, unknown>, callOptions?: CallOptions) => call(method, message, callOptions);
    }
    client[serviceName] = service;
  }
  return client as PlayfieldAdminClient;
}

import {
  ADMIN_API_PACKAGE, Code, PlayfieldError, UniqueViolation, adminShapeTable, codeToHttpStatus, fail, issuesToError, messageName, messageWriters,
  readMessage, toErrorJson, type MessageWriter,
} from "@playfield/core";
import { MAX_BODY_BYTES, readJsonBody } from "../rpc/rpc-handler.js";
import { REQUEST_ID_HEADER, requestIdOf } from "../observe/request-id.js";
import type { AdminRoute } from "../observe/admin-handler.js";
import type { ServerDeps } from "../server-deps.js";
import { createAdminContext } from "./admin-context.js";
import { createAdminRouter, type AdminImplementations } from "./admin-router.js";
import { authorizeOperator, DEFAULT_OPERATOR_TOKEN_SECONDS } from "./operator-tokens.js";
import { auditMethods } from "./services/audit-methods.js";
import { moderationMethods } from "./services/moderation-methods.js";
import { operatorMethods } from "./services/operator-methods.js";
import { payoutMethods } from "./services/payout-methods.js";
import { playerMethods } from "./services/player-methods.js";

/** What the admin API is built on: a server's parts (`server.deps`), and its settings. */
export interface AdminApiOptions {
  deps: ServerDeps;
  /** How long an operator token lasts; one hour when left out. */
  operatorTokenSeconds?: number;
}

/** The admin API is one route of the admin listener: its answer, or undefined for a path that is not an admin method. */
export type AdminApiHandler = AdminRoute;

const implementations: AdminImplementations = { operators: operatorMethods, players: playerMethods, moderation: moderationMethods, payouts: payoutMethods, audit: auditMethods };


/**
 * Creates the admin API (proto package `svc.admin.v1`) as a fetch handler
 * built from the admin descriptors: routing, body decoding, the operator's
 * role checked against the method's roles before it runs, validation, the
 * implementation, and an audit entry written in the transaction of every
 * change. Mount it on the admin listener only, never the public port.
 * Every answer carries `x-request-id`.
 *
 * @example
 * const admin = createAdminApi({ deps: server.deps });
 * const response = await admin(new Request("http://admin/svc.admin.v1.OperatorService/SignIn", { method: "POST", body: "{…}" }));
 */
export function createAdminApi(options: AdminApiOptions): AdminApiHandler {
  const { deps } = options;
  const tokenSeconds = options.operatorTokenSeconds ?? DEFAULT_OPERATOR_TOKEN_SECONDS;
  const routes = createAdminRouter(implementations);
  const table = adminShapeTable();
  const writerOf = messageWriters(table);
  const writers = new Map<string, MessageWriter>();
  const prefix = `/${ADMIN_API_PACKAGE}.`;

  const answer = (status: number, body: unknown, requestId: string, extra: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", [REQUEST_ID_HEADER]: requestId, ...extra } });
  const errorResponse = (error: PlayfieldError, requestId: string, extra?: Record<string, string>) =>
    answer(codeToHttpStatus[error.code], toErrorJson(error), requestId, extra);

  return async (request, env) => {
    const path = new URL(request.url).pathname;
    if (!path.startsWith(prefix)) return undefined;
    // The admin listener has set the id already (createAdminHandler); called alone, the same rule makes one.
    const requestId = requestIdOf(request.headers.get(REQUEST_ID_HEADER));
    const route = routes.get(path);
    if (!route) return errorResponse(new PlayfieldError(Code.Unimplemented, `${path}: no such admin method`), requestId);
    try {
      if (request.method !== "POST") return errorResponse(new PlayfieldError(Code.Unimplemented, `${route.method.name}: use POST`), requestId, { allow: "POST" });
      const body = await readBody(request);
      const caller = await authorizeOperator(deps, route.method, request.headers.get("authorization"));
      if (!route.impl) throw new PlayfieldError(Code.Unimplemented, `${route.method.name} is not built yet`);
      const parsed = route.method.input.safeParse(readMessage(table, table[messageName(route.method.input)]!, body));
      if (!parsed.success) throw issuesToError(parsed.error.issues);
      const ctx = createAdminContext(deps, caller, requestId, env?.clientAddress ?? null, tokenSeconds);
      const output = route.method.output.parse(await route.impl(parsed.data, ctx));
      const name = messageName(route.method.output);
      let write = writers.get(name);
      if (!write) writers.set(name, (write = writerOf(name)));
      return answer(200, write(output as Record<string, unknown>), requestId);
    } catch (reason) {
      if (reason instanceof PlayfieldError) {
        if (reason.code === Code.Internal) deps.onInternalError(reason);
        return errorResponse(reason, requestId);
      }
      if (reason instanceof UniqueViolation) return errorResponse(fail.exists(`${reason.index}: already taken`), requestId);
      deps.onInternalError(reason);
      return errorResponse(new PlayfieldError(Code.Internal, "internal error"), requestId);
    }
  };
}

/** The JSON object of a call's body, refused before it is read whole when it says it is too large. */
async function readBody(request: Request): Promise<Record<string, unknown>> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_BODY_BYTES) throw fail.invalid(`body: at most ${MAX_BODY_BYTES} bytes`);
  return readJsonBody(await request.text(), request.headers.get("content-type"));
}

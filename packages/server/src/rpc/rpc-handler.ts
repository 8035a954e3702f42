import {
  Code, PlayfieldError, UniqueViolation, codeToHttpStatus, fail, issuesToError, messageName, messageWriters, readMessage, shapeTable, toErrorJson,
  type MessageShape, type MessageWriter,
} from "@playfield/core";
import { authorize } from "./authorize.js";
import { clientAddressOf } from "./client-address.js";
import { CallContext } from "./handler-context.js";
import type { Route } from "./router.js";
import type { ServerDeps } from "../server-deps.js";

/**
 * One unary call as the RPC layer sees it: just what it reads. Adapters fill
 * it straight from their own request type, so the hot path builds no
 * `Request`, `Headers` or streams (in Node 20 those cost more than the call).
 */
export interface IncomingCall {
  method: string;
  /** Header value by lowercase name, or null. */
  header(name: string): string | null;
  /** The body as text (a string when the adapter has it already, which saves a turn); adapters enforce MAX_BODY_BYTES. */
  text(): string | Promise<string>;
  clientAddress: string | null;
}

/** The answer of a call: status, headers and a JSON body. */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The error's wire code, on an error answer (metrics and logs read it; it is not sent). */
  code?: string;
}

/** Answers one call to a known route. */
export type RpcHandler = {
  /** The route of a path, or undefined when it is not an API method. */
  route(path: string): Route | undefined;
  /** `requestId` goes with the failures it reports (`onInternalError`). */
  handle(route: Route, call: IncomingCall, requestId?: string): Promise<Answer>;
};

/** Told of a failure no caller hears of; `requestId` names the request it happened in, when there was one. */
export type InternalErrorReporter = (error: unknown, context?: { requestId?: string }) => void;

/** Bodies above this are refused before they are read whole (an 8 MiB upload is ~11 MiB of base64). */
export const MAX_BODY_BYTES = 12 * 1024 * 1024;

const JSON_TYPE = "application/json";
const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;
// The headers of every answered call: one object for all (nothing changes an answer's headers; CORS copies them).
const ANSWER_HEADERS: Record<string, string> = { "content-type": JSON_TYPE };

export function errorAnswer(error: PlayfieldError, headers: Record<string, string> = {}): Answer {
  return { status: codeToHttpStatus[error.code], headers: { "content-type": JSON_TYPE, ...headers }, body: JSON.stringify(toErrorJson(error)), code: error.code };
}

/** A call's body as a JSON object: `{}` when empty; `invalid_argument` naming the rule for anything else. The admin API reads its bodies here too. */
export function readJsonBody(text: string, contentType: string | null): Record<string, unknown> {
  if (text.length > MAX_BODY_BYTES) throw fail.invalid(`body: at most ${MAX_BODY_BYTES} bytes`);
  if (text.trim() === "") return {};
  // The type every client sends is checked by comparison; the RegExp reads the others (parameters, other cases).
  if (contentType !== null && contentType !== JSON_TYPE && !JSON_CONTENT_TYPE.test(contentType)) throw fail.invalid("content-type: must be application/json");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail.invalid("body: not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw fail.invalid("body: must be a JSON object");
  return body as Record<string, unknown>;
}

/**
 * Builds the RPC layer from the route table: body decoding, the auth check
 * from the descriptor, validation, the implementation, response encoding and
 * error mapping. Nothing a method does escapes as anything but an error JSON.
 */
export function createRpcHandler(deps: ServerDeps, routes: Map<string, Route>, onInternalError: InternalErrorReporter): RpcHandler {
  const table = shapeTable();
  const writerOf = messageWriters(table);
  // The output's writer is compiled for its message (message-writer.ts) at the route's first answer: compiling
  // every one would cost a server's start several times what the rest of it does.
  const shapes = new Map<Route, { input: MessageShape; output: MessageShape; write: MessageWriter | null }>();
  for (const route of routes.values()) {
    shapes.set(route, { input: table[messageName(route.method.input)]!, output: table[messageName(route.method.output)]!, write: null });
  }

  return {
    route: (path) => routes.get(path),
    async handle(route, call, requestId) {
      try {
        if (call.method !== "POST") {
          return errorAnswer(new PlayfieldError(Code.Unimplemented, `${route.method.name}: use POST`), { allow: "POST" });
        }
        const shape = shapes.get(route)!;
        // Content type and JSON are checked before auth: a malformed call is the caller's mistake whoever they are.
        const text = call.text();
        const body = readJsonBody(typeof text === "string" ? text : await text, call.header("content-type"));
        const caller = await authorize(deps, route.method, call.header("authorization"));
        if (!route.impl) throw new PlayfieldError(Code.Unimplemented, `${route.method.name} is not built yet`);
        const parsed = route.method.input.safeParse(readMessage(table, shape.input, body));
        if (!parsed.success) throw issuesToError(parsed.error.issues);
        const { trustedProxies } = deps.config;
        const address = trustedProxies.size === 0 ? call.clientAddress : clientAddressOf(call.clientAddress, call.header("x-forwarded-for"), trustedProxies);
        // The context reads headers from the call itself, whose methods live on its prototype: no closure per call.
        let output = (await route.impl(parsed.data, new CallContext(deps, caller, call, address))) as Record<string, unknown>;
        if (deps.config.validateResponses) {
          const checked = route.method.output.safeParse(output);
          if (!checked.success) {
            throw new PlayfieldError(Code.Internal, `${route.method.name} answered a malformed ${shape.output.name}`, { cause: checked.error });
          }
          output = checked.data as Record<string, unknown>;
        }
        return { status: 200, headers: ANSWER_HEADERS, body: JSON.stringify((shape.write ??= writerOf(shape.output.name))(output)) };
      } catch (reason) {
        if (reason instanceof PlayfieldError) {
          if (reason.code === Code.Internal) onInternalError(reason, { requestId });
          return errorAnswer(reason);
        }
        if (reason instanceof UniqueViolation) return errorAnswer(fail.exists(`${reason.index}: already taken`));
        onInternalError(reason, { requestId });
        return errorAnswer(new PlayfieldError(Code.Internal, "internal error"));
      }
    },
  };
}

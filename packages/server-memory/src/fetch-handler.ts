import {
  Code, PlayfieldError, UniqueViolation, codeToHttpStatus, fail, messageName, readMessage, shapeTable, toErrorJson, writeMessage,
  type FieldIssue, type MessageShape, type ShapeTable,
} from "@playfield/core";
import type { z } from "zod";
import { authorize } from "./authorize.js";
import type { Route } from "./router.js";
import type { ServerDeps } from "./server-deps.js";

/** What an adapter knows about a request beyond the Request itself. */
export interface RequestEnv {
  clientAddress?: string | null;
}

/** A Playfield server as a fetch handler: `(Request) => Promise<Response>`. */
export type FetchHandler = (request: Request, env?: RequestEnv) => Promise<Response>;

/** Extra non-RPC routes (health, keys, content): answer a Response, or null to pass. */
export type RawRoute = (request: Request, url: URL) => Promise<Response | null> | Response | null;

/** Bodies above this are refused before they are read whole (an 8 MiB upload is ~11 MiB of base64). */
export const MAX_BODY_BYTES = 12 * 1024 * 1024;

const JSON_HEADERS = { "content-type": "application/json" };

export function errorResponse(error: PlayfieldError, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(toErrorJson(error)), {
    status: codeToHttpStatus[error.code],
    headers: { ...JSON_HEADERS, ...headers },
  });
}

/** `a.b[2]: rule` for the first issue, as the spec wants the field named. */
export function issuesToError(issues: z.core.$ZodIssue[]): PlayfieldError {
  const details: FieldIssue[] = issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: issue.message,
  }));
  const first = details[0]!;
  const where = first.path.length ? first.path.map((p, i) => (typeof p === "number" ? `[${p}]` : i ? `.${p}` : p)).join("") : "body";
  return fail.invalid(`${where}: ${first.message}`, details);
}

async function readBody(request: Request): Promise<unknown> {
  const type = request.headers.get("content-type");
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw fail.invalid(`body: at most ${MAX_BODY_BYTES} bytes`);
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw fail.invalid(`body: at most ${MAX_BODY_BYTES} bytes`);
  if (text.trim() === "") return {};
  if (type !== null && !/^application\/json\s*(;|$)/i.test(type)) {
    throw new PlayfieldError(Code.InvalidArgument, "content-type: must be application/json");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw fail.invalid("body: not valid JSON");
  }
}

/**
 * Builds the fetch handler: routing, body decoding, the auth check from the
 * descriptor, validation, the implementation, response encoding and error
 * mapping. Nothing a method does can escape as anything but an error JSON.
 */
export function createFetchHandler(deps: ServerDeps, routes: Map<string, Route>, rawRoutes: RawRoute[] = [], onInternalError: (error: unknown) => void = () => {}): FetchHandler {
  const table: ShapeTable = shapeTable();
  const shapes = new Map<string, { input: MessageShape; output: MessageShape }>();
  for (const [path, route] of routes) {
    shapes.set(path, { input: table[messageName(route.method.input)]!, output: table[messageName(route.method.output)]! });
  }

  return async (request, env = {}) => {
    try {
      const url = new URL(request.url);
      const route = routes.get(url.pathname);
      if (!route) {
        for (const raw of rawRoutes) {
          const response = await raw(request, url);
          if (response) return response;
        }
        const rpcLike = /^\/[\w.]+\/\w+$/.test(url.pathname);
        return errorResponse(rpcLike
          ? new PlayfieldError(Code.Unimplemented, `${url.pathname.slice(1)} is not a method of this API`)
          : fail.notFound(`no route for ${request.method} ${url.pathname}`));
      }
      if (request.method !== "POST") {
        return errorResponse(new PlayfieldError(Code.Unimplemented, `${route.method.name}: use POST`), { allow: "POST" });
      }
      const shape = shapes.get(url.pathname)!;
      // Content type and JSON are checked before auth: a malformed call is the caller's mistake whoever they are.
      const body = await readBody(request);
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw fail.invalid("body: must be a JSON object");
      const caller = await authorize(deps, route.method, request.headers.get("authorization"));
      if (!route.impl) throw new PlayfieldError(Code.Unimplemented, `${route.method.name} is not built yet`);
      const parsed = route.method.input.safeParse(readMessage(table, shape.input, body as Record<string, unknown>));
      if (!parsed.success) throw issuesToError(parsed.error.issues);
      const output = await route.impl(parsed.data, {
        deps,
        caller,
        headers: request.headers,
        clientAddress: env.clientAddress ?? null,
      });
      let value = output as Record<string, unknown>;
      if (deps.config.validateResponses) {
        const checked = route.method.output.safeParse(output);
        if (!checked.success) {
          throw new PlayfieldError(Code.Internal, `${route.method.name} answered a malformed ${shape.output.name}`, { cause: checked.error });
        }
        value = checked.data as Record<string, unknown>;
      }
      return new Response(JSON.stringify(writeMessage(table, shape.output, value)), { status: 200, headers: JSON_HEADERS });
    } catch (reason) {
      if (reason instanceof PlayfieldError) {
        if (reason.code === Code.Internal) onInternalError(reason);
        const headers: Record<string, string> = {};
        return errorResponse(reason, headers);
      }
      if (reason instanceof UniqueViolation) return errorResponse(fail.exists(`${reason.index}: already taken`));
      onInternalError(reason);
      return errorResponse(new PlayfieldError(Code.Internal, "internal error"));
    }
  };
}


import type { RouteRequest } from "../routes/route.js";

/**
 * Where a server writes its log lines: any logger with pino's methods (a
 * pino logger is one; `createLogger` of `@playfield/server/node` makes one
 * writing JSON lines). Each line is an object of fields and a message.
 */
export interface Logger {
  isLevelEnabled(level: string): boolean;
  error(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  debug(fields: object, message?: string): void;
}

/** pino's levels, most severe first; `silent` writes nothing. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The level of an answer's line: the server's failures are errors, overload warnings, the rest (a caller's mistakes included) debug. */
export function levelOfAnswer(code: string, status: number): "error" | "warn" | "debug" {
  if (code === "internal" || code === "unknown" || code === "data_loss" || (status >= 500 && code !== "unavailable")) return "error";
  if (code === "unavailable" || code === "resource_exhausted" || code === "deadline_exceeded") return "warn";
  return "debug";
}

/** What an answer's line says. */
export interface AnswerLine {
  reqId: string;
  /** The API method (`svc.platform.v1.IdentityService/GetMe`), for calls; absent for other paths. */
  method?: string;
  status: number;
  code: string;
  /** Milliseconds from the request read to the answer made. */
  ms: number;
  req: RequestFields;
}

/** The request, as a line shows it: no body, no query, and no credential. */
export interface RequestFields {
  method: string;
  path: string;
  ip: string | null;
  userAgent?: string;
  origin?: string;
  client?: string;
  /** The scheme alone (`Bearer [redacted]`): whether a call was signed in is worth seeing, the token never is. */
  authorization?: string;
}

/** The fields of a request a line shows: the credential redacted. */
export function requestFields(request: RouteRequest): RequestFields {
  const fields: RequestFields = { method: request.method, path: request.path, ip: request.clientAddress };
  const userAgent = request.header("user-agent");
  const origin = request.header("origin");
  const client = request.header("x-svc-client");
  const authorization = request.header("authorization");
  if (userAgent !== null) fields.userAgent = userAgent;
  if (origin !== null) fields.origin = origin;
  if (client !== null) fields.client = client;
  if (authorization !== null) fields.authorization = redactCredential(authorization);
  return fields;
}

/** `Bearer eyJ…` → `Bearer [redacted]`; anything else → `[redacted]`. */
export function redactCredential(value: string): string {
  const scheme = /^([A-Za-z][\w-]{0,19})\s/.exec(value)?.[1];
  return scheme === undefined ? "[redacted]" : `${scheme} [redacted]`;
}

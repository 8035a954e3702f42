/**
 * Code is the closed set of error codes the platform answers with. The values
 * are the wire strings of the Connect protocol, so no conversion is needed.
 *
 * @example
 * if (err.code === Code.NotFound) showMissing();
 * @see ../shared/seeds/000_da1736cad803468d.txt "Errors"
 */
export const Code = {
  InvalidArgument: "invalid_argument",
  FailedPrecondition: "failed_precondition",
  Unauthenticated: "unauthenticated",
  PermissionDenied: "permission_denied",
  NotFound: "not_found",
  AlreadyExists: "already_exists",
  ResourceExhausted: "resource_exhausted",
  Internal: "internal",
  Unimplemented: "unimplemented",
  Unavailable: "unavailable",
  DeadlineExceeded: "deadline_exceeded",
  Canceled: "canceled",
} as const;
export type Code = (typeof Code)[keyof typeof Code];

/** HTTP status of each code: the spec's table, plus Connect's mapping for the rest. */
export const codeToHttpStatus: Record<Code, number> = {
  invalid_argument: 400,
  failed_precondition: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  already_exists: 409,
  resource_exhausted: 429,
  internal: 500,
  unimplemented: 404,
  unavailable: 503,
  deadline_exceeded: 504,
  canceled: 499,
};

const codes = new Set<string>(Object.values(Code));

/** Whether a string is one of the codes. */
export function isCode(value: unknown): value is Code {
  return typeof value === "string" && codes.has(value);
}

/** The code a client should assume for an HTTP status with no usable body (Connect's table). */
export function codeFromHttpStatus(status: number): Code {
  switch (status) {
    case 400: return Code.InvalidArgument;
    case 401: return Code.Unauthenticated;
    case 403: return Code.PermissionDenied;
    case 404: return Code.Unimplemented;
    case 409: return Code.AlreadyExists;
    case 429: return Code.ResourceExhausted;
    case 499: return Code.Canceled;
    case 502: case 503: return Code.Unavailable;
    case 504: return Code.DeadlineExceeded;
    default: return Code.Internal;
  }
}

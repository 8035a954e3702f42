import { Code, isCode } from "./code.js";

/** One problem with one field of a request: where, and which rule it broke. */
export interface FieldIssue {
  /** Path of the field, e.g. `["proportions", "height"]`. */
  path: (string | number)[];
  message: string;
}

/**
 * PlayfieldError is the one error class of the SDK, on the server and in the
 * client. Its message is prefixed with the code (`[not_found] …`);
 * `rawMessage` is the text without it.
 *
 * @example
 * throw new PlayfieldError(Code.InvalidArgument, "username: 3 to 20 letters, digits or _");
 */
export class PlayfieldError extends Error {
  override name = "PlayfieldError";
  readonly code: Code;
  readonly rawMessage: string;
  /** Field issues of a validation failure. */
  readonly details: FieldIssue[];
  /** True when the error was parsed from a server's answer. */
  readonly isWireError: boolean;

  constructor(code: Code, message: string, options: { details?: FieldIssue[]; cause?: unknown; isWireError?: boolean } = {}) {
    super(`[${code}] ${message}`, { cause: options.cause });
    this.code = code;
    this.rawMessage = message;
    this.details = options.details ?? [];
    this.isWireError = options.isWireError ?? false;
  }

  /** Wraps anything thrown into a PlayfieldError; unknown failures become `internal`. */
  static from(reason: unknown, fallback: Code = Code.Internal): PlayfieldError {
    if (reason instanceof PlayfieldError) return reason;
    if (reason instanceof Error) {
      if (reason.name === "AbortError") return new PlayfieldError(Code.Canceled, "the call was aborted", { cause: reason });
      if (reason.name === "TimeoutError") return new PlayfieldError(Code.DeadlineExceeded, "the call timed out", { cause: reason });
      return new PlayfieldError(fallback, reason.message, { cause: reason });
    }
    return new PlayfieldError(fallback, String(reason), { cause: reason });
  }
}

/** Shorthand constructors for the codes services throw most. */
export const fail = {
  invalid: (message: string, details?: FieldIssue[]) => new PlayfieldError(Code.InvalidArgument, message, { details }),
  precondition: (message: string) => new PlayfieldError(Code.FailedPrecondition, message),
  unauthenticated: (message: string) => new PlayfieldError(Code.Unauthenticated, message),
  denied: (message: string) => new PlayfieldError(Code.PermissionDenied, message),
  notFound: (message: string) => new PlayfieldError(Code.NotFound, message),
  exists: (message: string) => new PlayfieldError(Code.AlreadyExists, message),
  exhausted: (message: string) => new PlayfieldError(Code.ResourceExhausted, message),
  unimplemented: (message: string) => new PlayfieldError(Code.Unimplemented, message),
};

export { isCode };

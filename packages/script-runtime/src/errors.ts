import { boundText } from "./runtime/bounded-text.js";

/**
 * ErrorCode is the closed set of codes a script command fails with (the
 * same wire strings as the platform API's errors).
 */
export const ErrorCode = {
  /** An argument is missing or does not fit its rule; the message names it. */
  InvalidArgument: "invalid_argument",
  /** No such command, or no such script. */
  NotFound: "not_found",
  /** The command cannot apply in the runtime's current state (e.g. disposed). */
  FailedPrecondition: "failed_precondition",
  /** A bug in the runtime. */
  Internal: "internal",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The JSON form of a failed command. */
export interface ErrorJson {
  code: ErrorCode;
  message: string;
}

/**
 * ScriptRuntimeError is the one error `runtime.run` rejects with; its JSON
 * form is `{code, message}`.
 *
 * @example
 * try { await runtime.run("script.load", { name: "a" }); }
 * catch (e) { if (e instanceof ScriptRuntimeError) e.toJSON(); // {code: "invalid_argument", message: "source: ..."} }
 */
export class ScriptRuntimeError extends Error {
  override name = "ScriptRuntimeError";
  constructor(readonly code: ErrorCode, message: string) {
    super(message);
  }

  toJSON(): ErrorJson {
    return { code: this.code, message: this.message };
  }

  /** Wraps anything thrown into a ScriptRuntimeError (unknown failures are `internal`). */
  static from(reason: unknown): ScriptRuntimeError {
    if (reason instanceof ScriptRuntimeError) return reason;
    return new ScriptRuntimeError(ErrorCode.Internal, boundText(reason instanceof Error ? reason.message : String(reason)));
  }
}

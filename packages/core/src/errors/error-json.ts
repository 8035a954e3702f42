import { Code, codeFromHttpStatus, isCode } from "./code.js";
import { PlayfieldError } from "./playfield-error.js";

/** The JSON body of a failed call, as the spec writes it. */
export interface ErrorJson {
  code: Code;
  message: string;
  details?: { path: (string | number)[]; message: string }[];
}

/** The wire body of an error. */
export function toErrorJson(error: PlayfieldError): ErrorJson {
  const json: ErrorJson = { code: error.code, message: error.rawMessage };
  if (error.details.length > 0) json.details = error.details;
  return json;
}

/**
 * Reads an error body off the wire. A body that is not the error shape falls
 * back to the code of the HTTP status and never throws.
 */
export function errorFromJson(json: unknown, status: number): PlayfieldError {
  if (typeof json === "object" && json !== null) {
    const { code, message, details } = json as Record<string, unknown>;
    if (isCode(code)) {
      return new PlayfieldError(code, typeof message === "string" ? message : "", {
        details: Array.isArray(details) ? details.filter(isIssue) : [],
        isWireError: true,
      });
    }
  }
  return new PlayfieldError(codeFromHttpStatus(status), `HTTP ${status}`, { isWireError: true });
}

function isIssue(value: unknown): value is { path: (string | number)[]; message: string } {
  return typeof value === "object" && value !== null && Array.isArray((value as { path?: unknown }).path)
    && typeof (value as { message?: unknown }).message === "string";
}

import type { z } from "zod";
import { fail, type FieldIssue, type PlayfieldError } from "./playfield-error.js";

/** A field path as messages write it: `members[2].user`. */
export function fieldPath(path: readonly (string | number)[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i ? `.${p}` : p)).join("");
}

/**
 * The `invalid_argument` error of a failed validation: `a.b[2]: rule` for
 * the first issue, as the spec wants the field named (`body` when the whole
 * value is wrong), and every issue in `details`.
 */
export function issuesToError(issues: readonly z.core.$ZodIssue[], whole = "body"): PlayfieldError {
  const details: FieldIssue[] = issues.map((issue) => ({
    path: issue.path.map((p) => (typeof p === "symbol" ? String(p) : p)),
    message: issue.message,
  }));
  const first = details[0]!;
  return fail.invalid(`${first.path.length ? fieldPath(first.path) : whole}: ${first.message}`, details);
}

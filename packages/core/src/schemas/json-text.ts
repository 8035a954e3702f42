import { z } from "zod";
import { JSON_DEPTH_MAX, JSON_DEPTH_RULE, jsonTextDepth } from "../json/json-depth.js";
import { string } from "../wire/fields.js";

/*
 * Fields that carry JSON as text (datastore values and patches, budget
 * reports): the size, then the nesting, then the parse, each check aborting
 * the next, so over-long or over-deep text is never parsed or walked.
 */

/** What a JSON text field must hold. */
export interface JsonTextRule {
  /** The most characters, and its rule in words (`at most 4 MB`). */
  max: number;
  maxRule: string;
  /** `object`: a JSON object; `value`: any JSON value. */
  holds: "object" | "value";
  /** Whether "" is accepted (it then means "none"). */
  allowEmpty?: boolean;
}

const parses = (holds: JsonTextRule["holds"]) => (text: string): boolean => {
  try {
    const value: unknown = JSON.parse(text);
    return holds === "value" || (typeof value === "object" && value !== null && !Array.isArray(value));
  } catch {
    return false;
  }
};

/**
 * A string field holding JSON text: at most `max` characters, at most
 * JSON_DEPTH_MAX levels of nesting, and JSON of the kind `holds` names.
 *
 * @example
 * const value = jsonText({ max: 1024, maxRule: "at most 1 KiB", holds: "value" });
 */
export function jsonText(rule: JsonTextRule) {
  const isValid = parses(rule.holds);
  const kind = rule.holds === "object" ? "must be a JSON object as text" : "must be JSON text";
  const skip = (text: string) => rule.allowEmpty === true && text === "";
  return string(
    z.string()
      .max(rule.max, { error: rule.maxRule, abort: true })
      .refine((text) => skip(text) || jsonTextDepth(text, JSON_DEPTH_MAX) <= JSON_DEPTH_MAX, { error: JSON_DEPTH_RULE, abort: true })
      .refine((text) => skip(text) || isValid(text), { error: rule.allowEmpty ? `${kind} (or empty)` : kind }),
  );
}

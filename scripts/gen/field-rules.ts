import { z } from "zod";
import type { AnyMessage, FieldShape } from "@playfield/core";

/*
 * Field rules for the API reference, read from the zod schemas through
 * `z.toJSONSchema`: it gives lengths, ranges and patterns; the messages of
 * checks it cannot express (refinements) are added under RULES_KEY.
 */

/** The JSON Schema of one field or message, as `z.toJSONSchema` writes it. */
export type JsonSchema = Record<string, unknown>;

/** Where the check messages JSON Schema has no keyword for are kept. */
const RULES_KEY = "x-playfield-rules";

const INT64_MIN = Number.MIN_SAFE_INTEGER;
const INT64_MAX = Number.MAX_SAFE_INTEGER;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

interface CheckDef { check?: string; format?: string; error?: (issue: unknown) => unknown }

function checkMessage(def: CheckDef): string | undefined {
  if (typeof def.error !== "function") return undefined;
  try {
    const result = def.error({});
    if (typeof result === "string") return result;
    const message = (result as { message?: unknown } | undefined)?.message;
    return typeof message === "string" ? message : undefined;
  } catch {
    // A message built from the issue has nothing to say without one.
    return undefined;
  }
}

/** Keeps the messages of refinements and patterns, which say what the rule means. */
function addCheckMessages(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const checks = (ctx.zodSchema._zod.def as { checks?: { _zod: { def: CheckDef } }[] }).checks ?? [];
  const messages: string[] = [];
  for (const check of checks) {
    const def = check._zod.def;
    const telling = def.check === "custom" || (def.check === "string_format" && def.format === "regex");
    const message = telling ? checkMessage(def) : undefined;
    if (message && !messages.includes(message)) messages.push(message);
  }
  if (messages.length > 0) ctx.jsonSchema[RULES_KEY] = messages;
}

/**
 * Every message's JSON Schema by name, for the given request and response
 * schemas and every message they contain.
 */
export function messageJsonSchemas(schemas: readonly AnyMessage[]): Record<string, JsonSchema> {
  const defs: Record<string, JsonSchema> = {};
  for (const schema of schemas) {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", override: addCheckMessages });
    for (const [name, def] of Object.entries((json.$defs ?? {}) as Record<string, JsonSchema>)) defs[name] ??= def;
  }
  return defs;
}

/** The JSON Schema of any schema (input side), with the messages of refinements kept as rules. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", override: addCheckMessages }) as JsonSchema;
  // A schema with an id is written as a $ref to its own definition.
  const ref = typeof json.$ref === "string" ? json.$ref.slice(json.$ref.lastIndexOf("/") + 1) : undefined;
  return ref ? ((json.$defs as Record<string, JsonSchema>)[ref] ?? json) : json;
}

/** A Markdown code span that survives backticks inside. */
export function codeSpan(text: string): string {
  const fence = text.includes("`") ? "``" : "`";
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function num(schema: JsonSchema, key: string): number | undefined {
  const value = schema[key];
  return typeof value === "number" ? value : undefined;
}

function range(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  const u = unit ? ` ${unit}` : "";
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min}${u}` : `${min} to ${max}${u}`;
  if (min !== undefined) return min === 1 && unit === "characters" ? "required (not empty)" : `at least ${min}${u}`;
  if (max !== undefined) return `at most ${max}${u}`;
  return undefined;
}

/** Bounds a number field's wire type implies already are not rules worth writing. */
function impliedBounds(shape: FieldShape | undefined): [number, number] | undefined {
  if (shape?.kind !== "scalar") return undefined;
  if (shape.type === "int64") return [INT64_MIN, INT64_MAX];
  if (shape.type === "int32") return [INT32_MIN, INT32_MAX];
  return undefined;
}

function numberRules(schema: JsonSchema, shape: FieldShape | undefined): string[] {
  const implied = impliedBounds(shape);
  let min = num(schema, "minimum");
  let max = num(schema, "maximum");
  if (implied && min === implied[0]) min = undefined;
  if (implied && max === implied[1]) max = undefined;
  const rules: string[] = [];
  const r = range(min, max, "");
  if (r) rules.push(r);
  const exclusiveMin = num(schema, "exclusiveMinimum");
  const exclusiveMax = num(schema, "exclusiveMaximum");
  if (exclusiveMin !== undefined) rules.push(`greater than ${exclusiveMin}`);
  if (exclusiveMax !== undefined) rules.push(`less than ${exclusiveMax}`);
  const multipleOf = num(schema, "multipleOf");
  if (multipleOf !== undefined) rules.push(`a multiple of ${multipleOf}`);
  return rules;
}

function stringRules(schema: JsonSchema, shape: FieldShape | undefined): string[] {
  const rules: string[] = [];
  const length = range(num(schema, "minLength"), num(schema, "maxLength"), "characters");
  if (length) rules.push(length);
  // bytes are base64 by the wire type; its pattern and format say nothing more.
  const isBytes = shape?.kind === "scalar" && shape.type === "bytes";
  if (isBytes) return rules;
  const format = typeof schema.format === "string" && schema.format !== "regex" ? schema.format : undefined;
  // A named format (email, uuid, …) says what its long pattern does.
  if (format) rules.push(`format ${format}`);
  else if (typeof schema.pattern === "string") rules.push(`matches ${codeSpan(schema.pattern)}`);
  return rules;
}

/**
 * The rules of one field in words, read from its JSON Schema: description,
 * lengths, ranges, patterns, allowed values, and the messages of refinements.
 * `shape` is the field's wire shape, so that bounds implied by the wire type
 * (int32, int64, base64) are left out.
 *
 * @example
 * fieldRules({ type: "string", minLength: 8, maxLength: 200 }) // ["8 to 200 characters"]
 */
export function fieldRules(schema: JsonSchema, shape?: FieldShape): string[] {
  const rules: string[] = [];
  if (typeof schema.description === "string") rules.push(schema.description);
  const type = schema.type;
  if (type === "integer" || type === "number") rules.push(...numberRules(schema, shape));
  if (type === "string") rules.push(...stringRules(schema, shape));
  if (Array.isArray(schema.enum) && typeof schema.$ref !== "string") {
    rules.push(`one of ${schema.enum.map((v) => codeSpan(String(v))).join(", ")}`);
  }
  if (schema.const !== undefined) rules.push(`exactly ${codeSpan(JSON.stringify(schema.const))}`);
  if (type === "array") {
    const items = range(num(schema, "minItems"), num(schema, "maxItems"), "items");
    if (items) rules.push(items);
    const item = schema.items as JsonSchema | undefined;
    const itemShape = shape?.kind === "list" ? shape.item : undefined;
    const itemRules = item ? fieldRules(item, itemShape) : [];
    if (itemRules.length > 0) rules.push(`each item: ${itemRules.join(", ")}`);
  }
  if (type === "object" && shape?.kind === "map") {
    const entries = range(num(schema, "minProperties"), num(schema, "maxProperties"), "entries");
    if (entries) rules.push(entries);
    const keys = schema.propertyNames as JsonSchema | undefined;
    // int32 keys are checked by a pattern that the key type already says.
    const keyRules = keys && shape.key === "string" ? fieldRules(keys) : [];
    if (keyRules.length > 0) rules.push(`each key: ${keyRules.join(", ")}`);
    const value = schema.additionalProperties as JsonSchema | undefined;
    const valueRules = value && typeof value === "object" ? fieldRules(value, shape.value) : [];
    if (valueRules.length > 0) rules.push(`each value: ${valueRules.join(", ")}`);
  }
  const messages = schema[RULES_KEY];
  if (Array.isArray(messages)) for (const m of messages) if (typeof m === "string" && !rules.includes(m)) rules.push(m);
  return rules;
}

import { z } from "zod";
import type { AnyMessage } from "./fields.js";

/*
 * A wire shape is the part of a schema the proto3 JSON mapping needs: field
 * names, kinds, defaults. It is derived from the zod schemas, and the client
 * carries a generated copy so that it decodes answers with no zod at run time.
 */

export type ScalarType = "string" | "bool" | "int32" | "int64" | "double" | "bytes";

export type FieldShape =
  | { kind: "scalar"; type: ScalarType }
  | { kind: "enum"; name: string; values: readonly string[] }
  | { kind: "message"; name: string }
  | { kind: "list"; item: FieldShape }
  | { kind: "map"; key: "string" | "int32"; value: FieldShape };

export interface FieldInfo {
  name: string;
  shape: FieldShape;
  /** Explicit presence (proto3 `optional`, or a message field): never filled with a default. */
  optional: boolean;
}

export interface MessageShape {
  name: string;
  fields: FieldInfo[];
}

/** Every message shape by name: what a codec needs to read and write any message. */
export type ShapeTable = Record<string, MessageShape>;

function metaOf(schema: z.ZodType): Record<string, unknown> | undefined {
  return z.globalRegistry.get(schema) as Record<string, unknown> | undefined;
}

/** The message name of a schema made with `message()`. */
export function messageName(schema: z.ZodType): string {
  const id = metaOf(schema)?.id;
  if (typeof id !== "string") throw new Error("schema is not a named message");
  return id;
}

function unwrap(schema: z.ZodType): { inner: z.ZodType; optional: boolean } {
  let current = schema;
  let optional = false;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: z.ZodType };
    if (def.type === "optional" || def.type === "nullable") optional = true;
    if (def.type === "default" || def.type === "optional" || def.type === "nullable" || def.type === "prefault") {
      current = def.innerType as z.ZodType;
      continue;
    }
    return { inner: current, optional };
  }
}

/** `z.int()` is int64 and `z.int32()` int32: zod keeps the format on the def or in a check. */
function numberFormat(schema: z.ZodType): string | undefined {
  const def = schema._zod.def as { format?: string; checks?: { _zod: { def: { check?: string; format?: string } } }[] };
  return def.format ?? def.checks?.find((c) => c._zod.def.check === "number_format")?._zod.def.format;
}

function fieldShape(schema: z.ZodType, table: ShapeTable, outer: z.ZodType): FieldShape {
  const def = schema._zod.def as { type: string; format?: string; checks?: { _zod: { def: { format?: string } } }[] };
  switch (def.type) {
    case "string": {
      const format = (schema._zod.def as { format?: string }).format;
      return { kind: "scalar", type: format === "base64" ? "bytes" : "string" };
    }
    case "boolean": return { kind: "scalar", type: "bool" };
    case "number": {
      const format = numberFormat(schema);
      if (format === "safeint") return { kind: "scalar", type: "int64" };
      if (format === "int32") return { kind: "scalar", type: "int32" };
      return { kind: "scalar", type: "double" };
    }
    case "enum": {
      const values = (schema as z.ZodEnum).options as string[];
      const name = (metaOf(schema)?.id ?? metaOf(outer)?.id) as string | undefined;
      // A plain z.enum (no name) is a string on the wire: the proto carries it as string.
      if (!name) return { kind: "scalar", type: "string" };
      return { kind: "enum", name, values };
    }
    case "object": {
      const name = messageName(schema);
      addMessage(schema as AnyMessage, table);
      return { kind: "message", name };
    }
    case "array": {
      const item = unwrap((def as unknown as { element: z.ZodType }).element).inner;
      return { kind: "list", item: fieldShape(item, table, item) };
    }
    case "record": {
      const value = unwrap((def as unknown as { valueType: z.ZodType }).valueType).inner;
      const key = (metaOf(outer)?.mapKey ?? metaOf(schema)?.mapKey ?? "string") as "string" | "int32";
      return { kind: "map", key, value: fieldShape(value, table, value) };
    }
    case "pipe": {
      return fieldShape((def as unknown as { in: z.ZodType }).in, table, outer);
    }
    default:
      throw new Error(`unsupported schema type ${def.type} in a message`);
  }
}

/** Adds a message and every message it refers to into `table`. */
export function addMessage(schema: AnyMessage, table: ShapeTable): MessageShape {
  const name = messageName(schema);
  const known = table[name];
  if (known) return known;
  const shape: MessageShape = { name, fields: [] };
  table[name] = shape;
  for (const [field, fieldSchema] of Object.entries(schema.shape)) {
    const { inner, optional } = unwrap(fieldSchema as z.ZodType);
    const fs = fieldShape(inner, table, fieldSchema as z.ZodType);
    shape.fields.push({ name: field, shape: fs, optional: optional || fs.kind === "message" });
  }
  return shape;
}

/** camelCase → snake_case, as protoc names JSON fields. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

import { z } from "zod";

/*
 * Field builders for the proto3 JSON mapping. Every scalar, list and map field
 * has a default (proto3: a missing field reads as its default) that is
 * validated like a sent value (`prefault`: a required field left out fails its
 * rule, it is not silently empty), so a request
 * type's fields are optional to callers (`z.input`) and a response type's are
 * always present (`z.output`). The wire kind of a number is read back from
 * zod's own format: `z.int()` (safe integer) is int64, `z.int32()` is int32,
 * anything else is a double.
 */

/** A string field, default `""`. Pass a refined `z.string()` to add rules. */
export const string = (base: z.ZodType<string, string> = z.string()) => base.prefault("");

/** An int64 field: JSON string or number in, decimal string out, `number` in TypeScript (safe integers only). */
export const int64 = (base: z.ZodType<number, number> = z.int()) => base.prefault(0);

/** An int32 field (proto `int32`), default 0. */
export const int32 = (base: z.ZodType<number, number> = z.int32()) => base.prefault(0);

/** A double field, default 0. */
export const double = (base: z.ZodType<number, number> = z.number()) => base.prefault(0);

/** A boolean field, default false. */
export const bool = () => z.boolean().prefault(false);

/** A base64 `bytes` field, default `""`. */
export const bytes = () => z.base64().prefault("");

/** A timestamp: RFC 3339 text in UTC (`2026-11-22T10:00:00.000Z`), as proto3's Timestamp mapping writes it. */
export const timestamp = () => z.string().prefault("");

/** A repeated field, default `[]`. */
export const list = <T extends z.ZodType>(item: T) => z.array(item).prefault([]);

/** A map field with string keys (or int32 keys written as strings), default `{}`. */
export const map = <V extends z.ZodType>(value: V, key: "string" | "int32" = "string") =>
  z.record(key === "int32" ? z.string().regex(/^-?\d+$/, { error: "map keys must be integers" }) : z.string(), value)
    .meta({ mapKey: key })
    .prefault({});

/** A proto enum, written as its value names; the first value is the default. */
export const protoEnum = <const T extends readonly [string, ...string[]]>(name: string, values: T) =>
  z.enum(values).meta({ id: name }).prefault(values[0] as never);

/** A message type: a named object. Unknown fields are dropped, as proto3 ignores them. */
export const message = <S extends z.ZodRawShape>(name: string, shape: S) => z.object(shape).meta({ id: name });

/** Any message schema. */
export type AnyMessage = z.ZodObject<z.ZodRawShape>;

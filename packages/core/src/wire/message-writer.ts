import { writeMessage } from "./codec.js";
import type { FieldShape, MessageShape, ShapeTable } from "./wire-shape.js";

/*
 * writeMessage's rules compiled once per message shape. writeMessage reads
 * and writes every field by a name it holds in a variable, so in a server
 * answering every message of the API its property accesses see every shape
 * there is (megamorphic: a hash lookup each). A writer built here reads and
 * writes its message's fields by literal names, so each access site sees one
 * shape and V8 caches it. The output is writeMessage's, value for value
 * (test/message-writer.property.test.ts).
 */

type Json = unknown;
type JsonObject = Record<string, Json>;

/** Writes one message's response object as writeMessage does for its shape. */
export type MessageWriter = (value: JsonObject) => JsonObject;

const isObject = (v: Json): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether this runtime builds functions from text (a Content Security Policy or a flag may forbid it). */
const canCompile = (() => {
  try {
    return new Function("return true")() === true;
  } catch {
    return false;
  }
})();

/**
 * The writer of each message of `table`, by name, built on first use; a
 * runtime that does not build functions from text gets writeMessage itself.
 *
 * @example
 * const writerOf = messageWriters(shapeTable());
 * JSON.stringify(writerOf("Wallet")({ purchased: 12, earned: 0, pending: 0, total: 12 })); // {"purchased":"12","total":"12"}
 */
export function messageWriters(table: ShapeTable): (name: string) => MessageWriter {
  const writers = new Map<string, MessageWriter>();
  function writerOf(name: string): MessageWriter {
    let writer = writers.get(name);
    if (writer === undefined) {
      const message = table[name];
      if (message === undefined) throw new Error(`no message ${name} in the shape table`);
      writer = canCompile ? compile(message, table, writerOf) : (value) => writeMessage(table, message, value);
      writers.set(name, writer);
    }
    return writer;
  }
  return writerOf;
}

/** The check that leaves a field out as its default (writeMessage's isDefault), as code reading `v`. */
function defaultTest(shape: FieldShape): string | null {
  switch (shape.kind) {
    case "scalar": return `v === "" || v === 0 || v === false`;
    case "enum": return `v === ${JSON.stringify(shape.values[0])}`;
    case "list": return "Array.isArray(v) && v.length === 0";
    case "map": return "isObject(v) && Object.keys(v).length === 0";
    case "message": return null;
  }
}

/** A field's value as writeMessage's writeField writes it (for the items of lists and the values of maps). */
function fieldWriter(shape: FieldShape, table: ShapeTable, writerOf: (name: string) => MessageWriter): (value: Json) => Json {
  switch (shape.kind) {
    case "scalar":
      return shape.type === "int64" ? (value) => (typeof value === "number" ? String(value) : value) : (value) => value;
    case "enum":
      return (value) => value;
    case "message": {
      if (table[shape.name] === undefined) return (value) => value;
      // Looked up at the first call: a message may contain itself.
      let write: MessageWriter | undefined;
      return (value) => (isObject(value) ? (write ??= writerOf(shape.name))(value) : value);
    }
    case "list": {
      const item = fieldWriter(shape.item, table, writerOf);
      return (value) => (value as Json[]).map((v) => item(v));
    }
    case "map": {
      const entry = fieldWriter(shape.value, table, writerOf);
      return (value) => {
        const out: JsonObject = {};
        // Minus `__proto__`, which plain assignment would turn into a prototype.
        for (const [k, v] of Object.entries(value as JsonObject)) if (k !== "__proto__") out[k] = entry(v);
        return out;
      };
    }
  }
}

/**
 * The source of a message's writer: one statement per field, in the shape's
 * order, each reading and writing the field by its literal name. Scalars and
 * enums are written in place; other values go through `w[i]`.
 */
function compile(message: MessageShape, table: ShapeTable, writerOf: (name: string) => MessageWriter): MessageWriter {
  const helpers: ((value: Json) => Json)[] = [];
  const lines = ["const out = {};", "let v;"];
  for (const field of message.fields) {
    const key = JSON.stringify(field.name);
    const skip = field.optional ? null : defaultTest(field.shape);
    lines.push(`v = value[${key}];`);
    let written: string;
    if (field.shape.kind === "enum" || (field.shape.kind === "scalar" && field.shape.type !== "int64")) written = "v";
    else if (field.shape.kind === "scalar") written = `typeof v === "number" ? String(v) : v`;
    else {
      helpers.push(fieldWriter(field.shape, table, writerOf));
      written = `w[${helpers.length - 1}](v)`;
    }
    lines.push(`if (v !== undefined && v !== null${skip ? ` && !(${skip})` : ""}) out[${key}] = ${written};`);
  }
  lines.push("return out;");
  const build = new Function("isObject", "w", `return function write(value) {\n${lines.join("\n")}\n};`) as (
    isObject: (v: Json) => boolean,
    w: ((value: Json) => Json)[],
  ) => MessageWriter;
  return build(isObject, helpers);
}

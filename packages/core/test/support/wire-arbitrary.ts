import fc from "fast-check";
import type { FieldShape, MessageShape, ShapeTable } from "../../src/index.js";

/*
 * Arbitraries for property tests of the codec: any value of a message as its
 * TypeScript type holds it (every non-optional field present, an absent
 * optional field left out), built from the message's wire shape. Values obey
 * the wire types, not the schemas' rules.
 */

export interface ArbitraryOptions {
  /** Whether a field with explicit presence may be left out (default: yes); others never are. */
  mayBeAbsent?: (message: MessageShape, field: string) => boolean;
  /** Depth past which optional nested messages are left out; default 3. */
  maxDepth?: number;
}

function fieldArbitrary(table: ShapeTable, shape: FieldShape, depth: number, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  switch (shape.kind) {
    case "scalar":
      switch (shape.type) {
        case "string": return fc.string();
        case "bytes": return fc.base64String();
        case "bool": return fc.boolean();
        case "int32": return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
        case "int64": return fc.maxSafeInteger();
        // JSON has no -0: it is written, and read back, as 0.
        case "double": return fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => d + 0);
      }
      break;
    case "enum": return fc.constantFrom(...shape.values);
    case "message": return messageArbitrary(table, table[shape.name]!, options, depth + 1);
    case "list": return fc.array(fieldArbitrary(table, shape.item, depth, options), { maxLength: 3 });
    case "map": {
      const key = shape.key === "int32" ? fc.integer({ min: -1000, max: 1000 }).map(String) : fc.string().filter((k) => k !== "__proto__");
      return fc.dictionary(key, fieldArbitrary(table, shape.value, depth, options), { maxKeys: 3 });
    }
  }
}

/** Values of a message; optional nested messages stop at `maxDepth`. */
export function messageArbitrary(table: ShapeTable, message: MessageShape, options: ArbitraryOptions = {}, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const field of message.fields) {
    const absentOk = field.optional && (options.mayBeAbsent?.(message, field.name) ?? true);
    if (absentOk && field.shape.kind === "message" && depth >= (options.maxDepth ?? 3)) continue;
    record[field.name] = fieldArbitrary(table, field.shape, depth, options);
    if (!absentOk) required.push(field.name);
  }
  return fc.record(record, { requiredKeys: required });
}

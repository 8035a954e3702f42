import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fillMessage, readMessage, shapeTable, writeMessage, type FieldShape, type MessageShape } from "../src/index.js";

/*
 * The proto3 JSON codec round-trips every message of the API: for any value
 * of a message's wire shape, writing it (what the server sends), then
 * reading it as JSON text gives the value back — through `fillMessage` (what
 * the client does) and through `readMessage` (what the server does with a
 * request, before zod fills defaults).
 */

const table = shapeTable();

function fieldArb(shape: FieldShape, depth: number): fc.Arbitrary<unknown> {
  switch (shape.kind) {
    case "scalar":
      switch (shape.type) {
        case "string": return fc.string();
        case "bytes": return fc.base64String();
        case "bool": return fc.boolean();
        case "int32": return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
        case "int64": return fc.maxSafeInteger();
        case "double": return fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => (Object.is(d, -0) ? 0 : d));
      }
      break;
    case "enum": return fc.constantFrom(...shape.values);
    case "list": return fc.array(fieldArb(shape.item, depth), { maxLength: 3 });
    case "map": return fc.dictionary(shape.key === "int32" ? fc.integer({ min: 0, max: 99 }).map(String) : fc.string().filter((k) => k !== "__proto__"), fieldArb(shape.value, depth), { maxKeys: 3 });
    case "message": return depth > 3 ? fc.constant(undefined) : messageArb(table[shape.name]!, depth + 1);
  }
}

function messageArb(message: MessageShape, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of message.fields) {
    const arb = fieldArb(field.shape, depth);
    fields[field.name] = field.optional ? fc.option(arb, { nil: undefined }) : arb;
  }
  return fc.record(fields).map((value) => {
    // An absent optional field is left out, not set to undefined.
    for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
    return value;
  });
}

function viaJson(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

describe("the proto3 JSON codec", () => {
  const messages = Object.values(table);

  it("should know every message of the API", () => {
    expect(messages.length).toBeGreaterThan(100);
  });

  for (const message of messages) {
    it(`should round-trip ${message.name} through write → JSON → fill and → read`, () => {
      fc.assert(fc.property(messageArb(message), (value) => {
        const wire = viaJson(writeMessage(table, message, value));
        expect(fillMessage(table, message, wire)).toEqual(value);
        // The server reads a request, then zod fills the defaults: fillMessage stands in for zod here.
        expect(fillMessage(table, message, readMessage(table, message, wire))).toEqual(value);
      }), { numRuns: 30 });
    });
  }

  it("should read snake_case names and int64 strings, and drop unknown fields", () => {
    const auth = table.AuthResponse!;
    const read = readMessage(table, auth, { access_token: "a", expires_in_seconds: "900", unknown: 1 });
    expect(read).toEqual({ accessToken: "a", expiresInSeconds: 900 });
  });

  it("should write int64 as decimal strings and leave defaults out", () => {
    const wallet = table.Wallet!;
    expect(writeMessage(table, wallet, { purchased: 12, earned: 0, pending: 0, total: 12 })).toEqual({ purchased: "12", total: "12" });
  });
});

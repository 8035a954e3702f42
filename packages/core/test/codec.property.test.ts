import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fillMessage, readMessage, shapeTable, writeMessage } from "../src/index.js";
import { messageArbitrary } from "./support/wire-arbitrary.js";

/*
 * The proto3 JSON codec round-trips every message of the API: for any value
 * of a message's wire shape, writing it (what the server sends), then
 * reading it as JSON text gives the value back — through `fillMessage` (what
 * the client does) and through `readMessage` (what the server does with a
 * request, before zod fills defaults).
 */

const table = shapeTable();

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
      fc.assert(fc.property(messageArbitrary(table, message), (value) => {
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

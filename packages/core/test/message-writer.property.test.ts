import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messageWriters, shapeTable, writeMessage } from "../src/index.js";
import { messageArbitrary } from "./support/wire-arbitrary.js";

/*
 * A compiled writer writes what writeMessage writes, for every message of
 * the API: for values of the message's type, and for values with fields
 * missing, null, at their defaults, of the wrong kind or unknown (where
 * writeMessage throws, the writer throws the same kind of error).
 */

const table = shapeTable();
const writerOf = messageWriters(table);

/** What a write gives: its value, or the kind of error it threw. */
function outcome(write: () => unknown): { value: unknown } | { threw: string } {
  try {
    return { value: write() };
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

const junk = fc.oneof(
  fc.constantFrom<unknown>(null, undefined, "", 0, -0, false, true, [], {}, "AGE_BAND_UNSPECIFIED"),
  fc.anything(),
);

describe("messageWriters", () => {
  for (const message of Object.values(table)) {
    const names = [...message.fields.map((f) => f.name), "unknownField"];
    const values = fc.tuple(messageArbitrary(table, message), fc.dictionary(fc.constantFrom(...names), junk, { maxKeys: 3 }))
      .map(([value, changes]) => ({ ...value, ...changes }));

    it(`should write ${message.name} as writeMessage does`, () => {
      const write = writerOf(message.name);
      fc.assert(fc.property(values, (value) => {
        expect(outcome(() => write(value))).toEqual(outcome(() => writeMessage(table, message, value)));
      }), { numRuns: 40 });
    });
  }

  it("should leave defaults out and write int64 as decimal strings", () => {
    expect(writerOf("Wallet")({ purchased: 12, earned: 0, pending: 0, total: 12 })).toEqual({ purchased: "12", total: "12" });
  });

  it("should refuse a name the table does not know", () => {
    expect(() => writerOf("NoSuchMessage")).toThrow(/NoSuchMessage/);
  });
});

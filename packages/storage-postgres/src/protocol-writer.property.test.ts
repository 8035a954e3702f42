import fc from "fast-check";
import { serialize } from "pg-protocol";
import { describe, expect, it } from "vitest";
import { ProtocolWriter } from "./protocol-writer.js";

/** A message as a statement of a write: a Parse, or a Bind of text, bytes and nulls. */
const message = fc.oneof(
  fc.record({ kind: fc.constant("parse" as const), name: fc.stringMatching(/^[a-z0-9_]{0,20}$/), text: fc.string({ unit: "grapheme" }).map((text) => text.replaceAll("\u0000", "")) }),
  fc.record({
    kind: fc.constant("bind" as const),
    name: fc.stringMatching(/^[a-z0-9_]{0,20}$/),
    values: fc.array(fc.oneof(fc.constant(null), fc.string({ unit: "binary" }), fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes))), { maxLength: 40 }),
  }),
  fc.constant({ kind: "describe" as const }),
  fc.constant({ kind: "execute" as const }),
);

describe("protocol writer", () => {
  it("should encode a write's messages byte for byte as node-postgres's own serializer does, in one buffer however large", () => {
    fc.assert(fc.property(fc.array(message, { maxLength: 60 }), (messages) => {
      // A small first buffer: most writes grow it.
      const writer = new ProtocolWriter(16);
      const expected: Buffer[] = [];
      for (const m of messages) {
        if (m.kind === "parse") {
          writer.parse(m.name, m.text);
          expected.push(serialize.parse({ name: m.name, text: m.text, types: [] }));
        } else if (m.kind === "bind") {
          writer.bind(m.name, m.values);
          expected.push(serialize.bind({ statement: m.name, values: m.values }));
        } else if (m.kind === "describe") {
          writer.describe();
          expected.push(serialize.describe({ type: "P", name: "" }));
        } else {
          writer.execute();
          expected.push(serialize.execute({}));
        }
      }
      writer.sync();
      expected.push(serialize.sync());
      expect(writer.finish().equals(Buffer.concat(expected))).toBe(true);
    }), { numRuns: 300 });
  });
});

import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { pgliteDatabase } from "./pglite-database.js";
import { inlineParams, literal } from "./sql-literal.js";

describe("inlineParams", () => {
  it("should put each parameter where its $n stands, $10 included", () => {
    const params = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(inlineParams("SELECT $1, $10, $2", params)).toBe("SELECT 1, 10, 2");
  });

  it("should refuse a $n with no parameter, and values it does not bind", () => {
    expect(() => inlineParams("SELECT $2", [1])).toThrow(RangeError);
    expect(() => literal(1.5)).toThrow(TypeError);
    expect(() => literal({})).toThrow(TypeError);
    expect(() => literal("a\u0000b")).toThrow(TypeError);
  });
});

describe("literal", () => {
  const database = pgliteDatabase();
  afterAll(() => database.close());

  it("should be read back by PostgreSQL as the very value, for any text and bytes", { timeout: 120_000 }, async () => {
    // Quotes, backslashes, $n and the dollar quote's own tag ($_$, a text ending in $_) are the cases that matter.
    const text = fc.string({ unit: fc.constantFrom("'", "\\", "a", "$1", "\n", "é", "\\x00", "''", "$", "_", "$_$", "$_") });
    await fc.assert(fc.asyncProperty(text, fc.uint8Array({ maxLength: 8 }), async (s, bytes) => {
      const rows = await database.session((session) => session.query(`SELECT ${literal(s)}::text AS s, encode(${literal(bytes)}::bytea, 'hex') AS b`));
      expect(rows).toEqual([{ s, b: Buffer.from(bytes).toString("hex") }]);
    }), { numRuns: 200 });
  });
});

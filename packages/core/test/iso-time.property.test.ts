import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dayKey } from "../src/domain/analytics-windows.js";
import { isoTime } from "../src/domain/iso-time.js";
import { parseBirthdate } from "../src/domain/age-band.js";

describe("isoTime", () => {
  it("should write exactly what toISOString writes, for any time Date takes", () => {
    const times = fc.oneof(
      fc.integer({ min: 0, max: 253_402_300_799_999 }),
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.double({ min: 0, max: 4e12, noNaN: true }),
      fc.constantFrom(0, 951_782_400_000, 4_107_542_400_000, 253_402_300_799_999, 253_402_300_800_000, -1),
    );
    fc.assert(fc.property(times, (ms) => {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      expect(dayKey(ms)).toBe(new Date(ms).toISOString().slice(0, 10));
    }), { numRuns: 5000 });
  });

  it("should throw as toISOString does for a time that is none", () => {
    for (const ms of [Number.NaN, Infinity, 8.64e15 + 1]) expect(() => isoTime(ms)).toThrow(RangeError);
  });
});

describe("parseBirthdate", () => {
  it("should accept exactly the dates it accepted through a Date", () => {
    const date = fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }));
    fc.assert(fc.property(date, ([year, month, day]) => {
      const text = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
      // The rule as it was written through a Date (which reads years before 100 as 19xx, so refuses them).
      const utc = new Date(Date.UTC(year, month - 1, day));
      const real = utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
      expect(parseBirthdate(text)).toEqual(real ? { year, month, day } : null);
    }), { numRuns: 5000 });
  });

  it("should read exactly the texts it read with the RegExp YYYY-MM-DD", () => {
    // The rule as it was written with a RegExp and checked through a Date.
    const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
    const byPattern = (text: string) => {
      const m = DATE.exec(text);
      if (!m) return null;
      const year = Number(m[1]), month = Number(m[2]), day = Number(m[3]);
      const utc = new Date(Date.UTC(year, month - 1, day));
      const real = utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day;
      return real ? { year, month, day } : null;
    };
    const valid = fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
      .map(([y, m, d]) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);
    // A valid date with one character changed: any text, other digits (Arabic-Indic, fullwidth), signs, a line end.
    const put = fc.oneof(fc.string({ maxLength: 2 }), fc.constantFrom("\u0663", "\uff13", "+", " ", "\n", "/", ":", "", "-"));
    const changed = fc.tuple(valid, fc.nat({ max: 11 }), put).map(([text, at, p]) => text.slice(0, at) + p + text.slice(at + 1));
    fc.assert(fc.property(fc.oneof(valid, changed, fc.string({ maxLength: 12 })), (text) => {
      expect(parseBirthdate(text)).toEqual(byPattern(text));
    }), { numRuns: 10000 });
  });
});

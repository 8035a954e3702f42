import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ALL_ROWS, payloadsOf, readNotice, RowNotices, type WrittenRow } from "./row-notices.js";

describe("notices of written rows", () => {
  it("should tell of every row written, once, in payloads PostgreSQL accepts", () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom("users", "devices", "datastore_entries"), fc.string({ maxLength: 300, unit: "grapheme" })), { maxLength: 200 }), (rows) => {
      const payloads = payloadsOf(rows);
      for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
      const told = payloads.flatMap((payload) => readNotice(payload) ?? []);
      expect(new Set(told.map((row) => JSON.stringify(row)))).toEqual(new Set(rows.map((row) => JSON.stringify(row))));
      expect(told).toHaveLength(new Set(rows.map((row) => JSON.stringify(row))).size);
    }));
  });

  it("should drop every copy for a row whose notice alone would pass the limit, and for a payload it cannot read", () => {
    expect(payloadsOf([["t", "x".repeat(8_000)]])).toEqual([ALL_ROWS]);
    expect(readNotice(ALL_ROWS)).toBeNull();
    expect(readNotice("users usr_1")).toBeNull();
    expect(readNotice("[[\"users\", 1]]")).toBeNull();
  });

  it("should send what is written while a notice is on its way together in the next, and go on after a failed one", async () => {
    const sent: string[] = [];
    const pending: (() => void)[] = [];
    let fail = true;
    const notices = new RowNotices((payload) => new Promise<void>((resolve, reject) => {
      sent.push(payload);
      pending.push(() => (fail ? reject(new Error("connection lost")) : resolve()));
    }));
    notices.add([["users", "a"]]);
    await Promise.resolve();
    notices.add([["users", "b"]]);
    notices.add([["devices", "c"], ["users", "b"]]);
    expect(sent).toHaveLength(1);
    pending.shift()!();
    fail = false;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent).toHaveLength(2);
    pending.shift()!();
    await notices.idle();
    expect(sent.map((payload) => readNotice(payload))).toEqual([[["users", "a"]], [["users", "b"], ["devices", "c"]]] satisfies WrittenRow[][]);
  });

  it("should send the notice of every row in the same line, never beside another, covering the rows waiting, and say when it failed", async () => {
    const sent: string[] = [];
    let inFlight = 0;
    let most = 0;
    let fail = false;
    const notices = new RowNotices(async (payload) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      sent.push(payload);
      if (fail) throw new Error("connection lost");
    });
    notices.add([["users", "a"]]);
    notices.add([["users", "b"]]);
    await notices.all();
    expect(most).toBe(1);
    expect(sent).toEqual(["[[\"users\",\"a\"]]", ALL_ROWS]);
    fail = true;
    await expect(notices.all()).rejects.toThrow("connection lost");
  });
});

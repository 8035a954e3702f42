import { describe, expect, it } from "vitest";
import { isCheckFailed, isLostStatement, isRetryable } from "./retry-policy.js";

describe("what a failed statement means", () => {
  it("should tell a failed check of a copy, a lost statement and a conflict by SQLSTATE alone", () => {
    const pg = (code: string) => Object.assign(new Error("database"), { code });
    expect(isCheckFailed(pg("22012"))).toBe(true);
    expect(isRetryable(pg("22012"))).toBe(false);
    expect(isLostStatement(pg("26000"))).toBe(true);
    expect(isRetryable(pg("26000"))).toBe(true);
    expect(isRetryable(pg("40001"))).toBe(true);
    expect(isCheckFailed(pg("40001"))).toBe(false);
  });

  it("should answer false, not throw, for what is not a database error: null, undefined, a string, an Error without a code", () => {
    for (const thrown of [null, undefined, "22012", 22012, new Error("22012"), { code: 22012 }]) {
      expect(isCheckFailed(thrown)).toBe(false);
      expect(isRetryable(thrown)).toBe(false);
      expect(isLostStatement(thrown)).toBe(false);
    }
  });
});

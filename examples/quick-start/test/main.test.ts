import { describe, expect, it } from "vitest";
import { main } from "../src/main.js";

describe("quick start example", () => {
  it("should sign up, list the device, refuse a taken name, and sign out", async () => {
    const lines: string[] = [];
    await main((line) => lines.push(line));
    expect(lines).toEqual([
      "signed up as ada_l (AGE_BAND_18_PLUS)",
      "devices: Quick start (Node) (this one)",
      "second sign-up refused: already_exists: username: already taken",
      "signed in after sign-out: false",
    ]);
  });
});

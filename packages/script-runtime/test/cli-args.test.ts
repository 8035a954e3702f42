import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { UsageError, parseCliArgs } from "../src/cli/cli-args.js";

describe("parseCliArgs", () => {
  it("should read the modes and options", () => {
    expect(parseCliArgs([])).toEqual({ mode: "lines", help: false, project: undefined, create: false, manualTicks: false, seed: 0, port: 0 });
    expect(parseCliArgs(["serve", "--project", "my-game", "--port", "8787", "--seed", "7", "--manual-ticks"]))
      .toEqual({ mode: "serve", help: false, project: "my-game", create: false, manualTicks: true, seed: 7, port: 8787 });
    expect(parseCliArgs(["mcp", "--project=my-game", "--create"])).toMatchObject({ mode: "mcp", project: "my-game", create: true });
    expect(parseCliArgs(["serve", "--help"]).help).toBe(true);
  });

  it("should refuse what it does not know, naming it", () => {
    expect(() => parseCliArgs(["serve", "--bogus"])).toThrow(new UsageError("unknown option --bogus"));
    expect(() => parseCliArgs(["--create"])).toThrow(new UsageError("--create needs --project DIR"));
    expect(() => parseCliArgs(["--project", ""])).toThrow(new UsageError("--project needs a folder"));
    expect(() => parseCliArgs(["--seed", "4294967296"])).toThrow(new UsageError('--seed must be an integer from 0 to 4294967295, got "4294967296"'));
    expect(() => parseCliArgs(["--project"])).toThrow(new UsageError("--project needs a value"));
  });

  it("should answer any argument list with parsed arguments or a UsageError, never another error", () => {
    const word = fc.oneof(
      fc.constantFrom("serve", "mcp", "--project", "--create", "--manual-ticks", "--seed", "--port", "--help", "-h", "--", "-", "--seed=1", "--port=99999", "--x"),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(fc.property(fc.array(word, { maxLength: 8 }), (argv) => {
      try {
        const args = parseCliArgs(argv);
        if (args.help) return;
        expect(Number.isInteger(args.seed) && Number.isInteger(args.port)).toBe(true);
        expect(args.port === 0 || args.mode === "serve").toBe(true);
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).message.length).toBeGreaterThan(0);
      }
    }), { numRuns: 2_000 });
  });
});

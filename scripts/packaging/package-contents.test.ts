import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

/*
 * What `npm pack` would publish of each package: the license and
 * README, only the folders they ship, and (once built, as in CI) every file
 * their exports and commands name, with no bundle that repeats a library.
 * playfield-scripts' package checks its own listing (script-runtime's tests).
 */

const repo = fileURLToPath(new URL("../..", import.meta.url));
const PACKAGES = ["core", "client", "storage-contract", "server", "server-memory", "storage-postgres", "realtime-redis", "cli"];
const SHIPPED = /^(?:dist|src|bin)\/|^(?:LICENSE|README\.md|package\.json)$/;

interface Packed { name: string; files: { path: string; size: number }[] }
interface Manifest { name: string; exports: Record<string, unknown>; bin?: Record<string, string>; files: string[] }

const manifest = (dir: string) => JSON.parse(readFileSync(join(repo, "packages", dir, "package.json"), "utf8")) as Manifest;

/** Every file path an exports map names (all conditions), except the source condition's. */
function exportTargets(exports: unknown, condition = ""): string[] {
  if (typeof exports === "string") return condition === "@playfield/source" ? [] : [exports.replace(/^\.\//, "")];
  if (exports === null || typeof exports !== "object") return [];
  return Object.entries(exports).flatMap(([key, value]) => exportTargets(value, key));
}

describe("npm pack of the library packages", () => {
  const packed = new Map<string, Packed>();

  beforeAll(async () => {
    const { stdout } = await promisify(execFile)("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", ...PACKAGES.flatMap((p) => ["-w", `packages/${p}`])], { cwd: repo });
    for (const entry of JSON.parse(stdout) as Packed[]) packed.set(entry.name, entry);
  }, 120_000);

  const license = readFileSync(join(repo, "LICENSE"), "utf8");

  for (const dir of PACKAGES) {
    it(`should ship ${dir}'s license, README and shipped folders only`, () => {
      const { name, files } = manifest(dir);
      const paths = packed.get(name)!.files.map((f) => f.path);
      expect(paths).toEqual(expect.arrayContaining(["LICENSE", "README.md", "package.json"]));
      expect(files).toContain("LICENSE");
      expect(readFileSync(join(repo, "packages", dir, "LICENSE"), "utf8")).toBe(license);
      expect(paths.filter((p) => !SHIPPED.test(p))).toEqual([]);
      expect(paths.filter((p) => /\.test(-d)?\.ts$|\.tsbuildinfo$/.test(p))).toEqual([]);
    });

    it(`should ship every file ${dir}'s exports and commands name, once built`, () => {
      const { name, exports, bin } = manifest(dir);
      const paths = new Set(packed.get(name)!.files.map((f) => f.path));
      const commands = Object.values(bin ?? {}).map((p) => p.replace(/^\.\//, ""));
      // Commands are committed launchers: they are there with or without a build.
      for (const command of commands) expect(paths, command).toContain(command);
      if (!existsSync(join(repo, "packages", dir, "dist"))) return; // not built here; CI builds before testing
      for (const target of exportTargets(exports)) expect(paths, target).toContain(target);
    });
  }

  it("should ship the command as a small entry importing the server and adapters, not bundling them", () => {
    const files = packed.get("@playfield/cli")!.files;
    expect(packed.get("@playfield/server")!.files.map((f) => f.path).filter((p) => p.startsWith("bin/") || p.startsWith("dist/cli"))).toEqual([]);
    const cli = files.find((f) => f.path === "dist/cli.js");
    if (existsSync(join(repo, "packages", "cli", "dist"))) expect(cli, "dist/cli.js").toBeDefined();
    if (cli) expect(cli.size).toBeLessThan(40_000);
  });
});

import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpClient } from "./mcp-client.js";

// What `npm pack` of this package holds, built as it is published (the
// declaration files aside, which take a long type-check), and the package
// installed from that tarball running its command.
const PACKAGE = fileURLToPath(new URL("../", import.meta.url));
const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const pkg = JSON.parse(readFileSync(join(PACKAGE, "package.json"), "utf8")) as { dependencies: Record<string, string>; bin: Record<string, string> };

let work: string;
let staged: string;
let installed: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "playfield-pack-"));
  staged = join(work, "package");
  execFileSync(process.execPath, [join(REPO, "node_modules/tsup/dist/cli-default.js"), "--out-dir", join(staged, "dist"), "--no-dts", "--silent"], { cwd: PACKAGE, stdio: "pipe" });
  for (const entry of ["package.json", "README.md", "LICENSE", "bin", "src"]) cpSync(join(PACKAGE, entry), join(staged, entry), { recursive: true });
  // Installed from the tarball into an app's node_modules, its dependencies placed
  // beside it as an install would (from this repository's node_modules).
  const tarball = execFileSync(npm, ["pack", "--silent", "--pack-destination", work], { cwd: staged, encoding: "utf8" }).trim().split("\n").pop()!;
  installed = join(work, "app/node_modules/@playfield/script-runtime");
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", join(work, tarball), "-C", installed, "--strip-components=1"]);
  for (const name of Object.keys(pkg.dependencies)) {
    mkdirSync(join(work, "app/node_modules", name, ".."), { recursive: true });
    symlinkSync(join(REPO, "node_modules", name), join(work, "app/node_modules", name));
  }
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("npm pack of @playfield/script-runtime", () => {
  it("should hold the library in both formats, the command as ESM only, the launcher, the sources and the LICENSE", () => {
    const [packed] = JSON.parse(execFileSync(npm, ["pack", "--dry-run", "--json"], { cwd: staged, encoding: "utf8" })) as [{ files: { path: string }[] }];
    const files = packed.files.map((f) => f.path).sort();
    expect(files.filter((f) => !/^(src|dist)\//.test(f))).toEqual(["LICENSE", "README.md", "bin/playfield-scripts.js", "package.json"]);
    const built = files.filter((f) => f.startsWith("dist/") && !f.endsWith(".map"));
    expect(built.filter((f) => !f.includes("/chunk-") && !/\/(run-command-line|mcp-server)-\w+\.js$/.test(f)))
      .toEqual(["dist/cli.js", "dist/engine-worker.js", "dist/index.cjs", "dist/index.js", "dist/node.cjs", "dist/node.js"]);
    expect(built.filter((f) => f.endsWith(".cjs") && f.includes("cli"))).toEqual([]);
    expect(files.filter((f) => f.startsWith("src/") && !f.endsWith(".ts"))).toEqual([]);
  }, 60_000);

  it("should ship the repository's MIT LICENSE", () => {
    const license = readFileSync(join(PACKAGE, "LICENSE"), "utf8");
    expect(license).toMatch(/^MIT License\n/);
    expect(license).toBe(readFileSync(join(REPO, "LICENSE"), "utf8"));
  });

  it("should run its command from the installed package (the built dist, no tsx)", () => {
    expect(existsSync(join(installed, "dist/cli.cjs"))).toBe(false);
    const bin = join(installed, pkg.bin["playfield-scripts"]!);
    const help = spawnSync(process.execPath, [bin, "--help"], { cwd: join(work, "app"), encoding: "utf8", timeout: 30_000 });
    expect(help).toMatchObject({ status: 0, stdout: expect.stringContaining("Usage:") });
    const lines = spawnSync(process.execPath, [bin, "--manual-ticks"], {
      cwd: join(work, "app"),
      encoding: "utf8",
      timeout: 30_000,
      input: '{"command":"script.load","args":{"name":"a","source":"export default {}"}}\n{"command":"runtime.step","args":{"ticks":1}}\n{"command":"script.list"}\n',
    });
    expect(lines.stderr).toBe("");
    const answers = lines.stdout.trim().split("\n").map((l) => JSON.parse(l) as { ok: boolean; result: { log?: string[] } });
    expect(answers.map((a) => a.ok)).toEqual([true, true, true]);
    expect(answers[2]!.result.log).toEqual(["[tick 1] loaded a"]);
  }, 60_000);

  it("should serve MCP from the installed package", async () => {
    const bin = join(installed, pkg.bin["playfield-scripts"]!);
    const client = await mcpClient(process.execPath, [bin, "mcp", "--manual-ticks"], join(work, "app"));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(["script_load", "runtime_step", "script_list"]));
  }, 60_000);
});

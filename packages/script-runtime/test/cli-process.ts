import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

/** Runs `playfield-scripts` from source with the given command lines; resolves to its answer lines, parsed. */
export function runCli(commands: unknown[], flags: string[] = ["--manual-ticks"]): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--conditions=@playfield/source", "--import", "tsx", cli, ...flags], { cwd: repoRoot, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => { out += d.toString(); });
    child.stderr.on("data", (d: Buffer) => { err += d.toString(); });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`playfield-scripts exited with ${code}: ${err}`));
      else resolve(out.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown));
    });
    child.stdin.end(commands.map((c) => (typeof c === "string" ? c : JSON.stringify(c))).join("\n") + "\n");
  });
}

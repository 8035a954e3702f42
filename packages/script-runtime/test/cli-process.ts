import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** The command's launcher, as npm links it (it runs src/cli.ts in a checkout). */
export const BIN = fileURLToPath(new URL("../bin/playfield-scripts.js", import.meta.url));

/** What a finished `playfield-scripts` run left. */
export interface BinRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `playfield-scripts` with `args`, writing `stdin` (then ending it,
 * unless `keepStdinOpen`); fails after `timeoutMs` rather than hang.
 */
export function runBin(args: string[], options: { stdin?: string; keepStdinOpen?: boolean; cwd?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<BinRun> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? repoRoot, stdio: ["pipe", "pipe", "pipe"], env: options.env ?? process.env });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`playfield-scripts ${args.join(" ")} did not finish in ${options.timeoutMs ?? 20_000} ms; stderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.stdout!.on("data", (d: Buffer) => { stdout += d.toString(); });
    child.stderr!.on("data", (d: Buffer) => { stderr += d.toString(); });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin!.on("error", () => undefined); // a process that exits before reading its input
    if (options.stdin !== undefined) child.stdin!.write(options.stdin);
    if (!options.keepStdinOpen) child.stdin!.end();
  });
}

/** Runs `playfield-scripts` with the given command lines; resolves to its answer lines, parsed. */
export async function runCli(commands: unknown[], flags: string[] = ["--manual-ticks"], env?: NodeJS.ProcessEnv): Promise<unknown[]> {
  const run = await runBin(flags, { stdin: commands.map((c) => (typeof c === "string" ? c : JSON.stringify(c))).join("\n") + "\n", timeoutMs: 60_000, env });
  if (run.code !== 0) throw new Error(`playfield-scripts exited with ${run.code}: ${run.stderr}`);
  return run.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as unknown);
}

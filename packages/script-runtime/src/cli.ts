/**
 * `playfield-scripts`: a script runtime driven by JSON lines on stdin, one
 * answer line per command on stdout; with `serve`, a local HTTP server of
 * the same commands and the Scripts panel page; with `mcp`, the same
 * commands as Model Context Protocol tools over stdio. `--help` says more
 * ({@link USAGE}). Scripts see the package's reference world (`game`).
 *
 * The arguments are checked before the runtime is imported, so `--help` and
 * a mistyped option answer at once.
 */
import { USAGE, UsageError, parseCliArgs } from "./cli/cli-args.js";
import type { CliArgs } from "./cli/cli-args.js";
import { FAILURE_EXIT, refuse } from "./cli/exit.js";

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseCliArgs(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) refuse(error.message);
    throw error;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const { runCommandLine } = await import("./cli/run-command-line.js");
  await runCommandLine(args);
}

main().catch((error: unknown) => {
  process.stderr.write(`playfield-scripts: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(FAILURE_EXIT);
});

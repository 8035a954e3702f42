import { mkdirSync, statSync } from "node:fs";
import { createScriptEditor } from "../editor/create-script-editor.js";
import { createReferenceWorld } from "../kinds/reference-world.js";
import { createScriptRuntime } from "../runtime/create-script-runtime.js";
import type { ScriptRuntime } from "../runtime/create-script-runtime.js";
import type { CliArgs } from "./cli-args.js";
import { answerLines } from "./command-lines.js";
import { FAILURE_EXIT, refuse } from "./exit.js";
import { createScriptServer } from "./serve.js";
import { workerEngines } from "../worker/worker-engines.js";

/** Checks the project folder before anything runs: a missing folder is made only with --create. */
function openProject(args: CliArgs): void {
  if (args.project === undefined) return;
  let isFolder: boolean | undefined;
  try { isFolder = statSync(args.project).isDirectory(); } catch { isFolder = undefined; }
  if (isFolder === false) refuse(`--project ${args.project} is a file, not a folder`);
  if (isFolder === undefined) {
    if (!args.create) refuse(`--project ${args.project}: no such folder (add --create to make it)`);
    mkdirSync(args.project, { recursive: true });
  }
}

/** Writes to stdout, waiting while its buffer is full. */
const writeOut = (text: string) => new Promise<void>((resolve) => {
  if (process.stdout.write(text)) resolve();
  else process.stdout.once("drain", resolve);
});

/** Runs `playfield-scripts` in the mode its arguments ask for, until its input ends or a signal stops it. */
export async function runCommandLine(args: CliArgs): Promise<void> {
  openProject(args);
  // The command line's scripts see the reference world: a stand-in for a
  // game's own kinds, so the check never replaces a project's declarations.
  // Scripts run in worker threads, so the watchdog stops even a native step that never returns.
  const engines = workerEngines();
  const editor = args.project === undefined ? undefined
    : createScriptEditor({ project: args.project, seed: args.seed, kinds: () => createReferenceWorld(), declarations: "keep", engines });
  const runtime: ScriptRuntime = editor?.runtime ?? createScriptRuntime({ seed: args.seed, kinds: createReferenceWorld(), engines });
  let stopping: Promise<void> | undefined;
  const shutdown = (code = 0) => {
    stopping ??= (editor ? editor.dispose() : runtime.dispose()).then(() => process.exit(code), () => process.exit(FAILURE_EXIT));
    return stopping;
  };
  // A reader that went away is the end of the session, not a crash.
  process.stdout.on("error", () => { void shutdown(0); });
  if (!args.manualTicks) runtime.start();

  if (args.mode === "serve") {
    let server;
    try {
      server = await createScriptServer(runtime, { port: args.port });
    } catch (error) {
      const code = (error as { code?: string }).code;
      process.stderr.write(code === "EADDRINUSE"
        ? `playfield-scripts: port ${args.port} is taken; choose another with --port N (0 picks a free one)\n`
        : `playfield-scripts: cannot serve: ${error instanceof Error ? error.message : String(error)}\n`);
      return shutdown(FAILURE_EXIT);
    }
    process.stdout.write(`serving ${server.url}\n`);
    let closing: Promise<void> | undefined;
    const stop = () => { closing ??= server.close().then(() => shutdown(0)); };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
    return;
  }
  if (args.mode === "mcp") {
    const { serveMcp } = await import("./mcp-server.js");
    await serveMcp(runtime, { stdin: process.stdin, stdout: process.stdout, onClose: () => { void shutdown(0); } });
    return;
  }
  await answerLines(runtime, process.stdin, (answer) => writeOut(`${answer}\n`));
  await shutdown(0);
}

#!/usr/bin/env node
/**
 * `playfield-scripts`: a script runtime driven by JSON lines on stdin, one
 * answer line per command on stdout; or, with `serve`, a local HTTP server
 * of the same commands and the Scripts panel page.
 *
 *   --manual-ticks   ticks advance only with {"command":"runtime.step","args":{"ticks":N}}
 *   --project DIR    the project folder: scripts/ serves imports and holds scripts.config.json;
 *                    the editor.scripts.* commands and live reload act on it
 *   --seed N         seed of scripts' Math.random (default 0)
 *
 *   playfield-scripts serve --project DIR [--port N]
 *                    POST /commands/<command> (JSON in, JSON out) and the panel at / on 127.0.0.1
 *
 * Scripts see the package's reference world (`game`).
 */
import { createInterface } from "node:readline";
import { answerLine } from "./cli/command-lines.js";
import { createScriptServer } from "./cli/serve.js";
import { createScriptEditor } from "./editor/create-script-editor.js";
import { createReferenceWorld } from "./kinds/reference-world.js";
import { createScriptRuntime } from "./runtime/create-script-runtime.js";
import type { ScriptRuntime } from "./runtime/create-script-runtime.js";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const value = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};

const serve = argv[0] === "serve";
const project = value("--project");
const seed = Number(value("--seed") ?? 0);
const editor = project ? createScriptEditor({ project, seed, kinds: () => createReferenceWorld() }) : undefined;
const runtime: ScriptRuntime = editor?.runtime ?? createScriptRuntime({ seed, kinds: createReferenceWorld() });
const shutdown = () => (editor ? editor.dispose() : runtime.dispose());
if (!flag("--manual-ticks")) runtime.start();

if (serve) {
  // No top-level await: the command line is also built as CommonJS.
  void createScriptServer(runtime, { port: Number(value("--port") ?? 0) }).then((server) => {
    process.stdout.write(`serving ${server.url}\n`);
    const stop = () => { void server.close().then(shutdown).then(() => process.exit(0)); };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
} else {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let pending = Promise.resolve();
  lines.on("line", (line) => {
    if (line.trim() === "") return;
    // Answers keep the order of the commands.
    pending = pending.then(async () => {
      process.stdout.write(`${await answerLine(runtime, line)}\n`);
    });
  });
  lines.on("close", () => {
    void pending.then(shutdown).then(() => process.exit(0));
  });
}

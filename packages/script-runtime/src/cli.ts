#!/usr/bin/env node
/**
 * `playfield-scripts`: a script runtime driven by JSON lines on stdin, one
 * answer line per command on stdout.
 *
 *   --manual-ticks   ticks advance only with {"command":"runtime.step","args":{"ticks":N}}
 *   --project DIR    the project folder (its scripts/ folder serves imports)
 *   --seed N         seed of scripts' Math.random (default 0)
 */
import { readFileSync } from "node:fs";
import { resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import { answerLine } from "./cli/command-lines.js";
import { createScriptRuntime } from "./runtime/create-script-runtime.js";

const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const value = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};

const project = value("--project");
const scriptsDir = project ? resolve(project, "scripts") : undefined;
const runtime = createScriptRuntime({
  seed: Number(value("--seed") ?? 0),
  modules: scriptsDir
    ? (path) => {
        const file = resolve(scriptsDir, path);
        if (!file.startsWith(scriptsDir + sep)) return undefined;
        try { return readFileSync(file, "utf8"); } catch { return undefined; }
      }
    : undefined,
});
if (!flag("--manual-ticks")) runtime.start();

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
  void pending.then(() => runtime.dispose()).then(() => process.exit(0));
});

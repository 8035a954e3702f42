#!/usr/bin/env node
// The `playfield-server` command. Installed (the package under
// node_modules) it runs the built dist/cli.js. In a checkout of the
// repository npm links this file before anything is built, so it runs
// src/cli.ts through tsx with the workspace's "@playfield/source" export
// condition: a checkout always runs its own source, never a stale or
// missing build. The file is the same in every package with a command;
// only ENTRY differs.
import { spawn } from "node:child_process";
import { sep } from "node:path";
import { fileURLToPath } from "node:url";

const ENTRY = { built: "../dist/cli.js", source: "../src/cli.ts" };

if (fileURLToPath(import.meta.url).split(sep).includes("node_modules")) {
  await import(new URL(ENTRY.built, import.meta.url).href);
} else {
  let tsx;
  try {
    tsx = import.meta.resolve("tsx");
  } catch {
    process.stderr.write("This checkout has no tsx to run its source: run npm ci at the repository's root first.\n");
    process.exit(1);
  }
  const source = fileURLToPath(new URL(ENTRY.source, import.meta.url));
  const child = spawn(process.execPath, [...process.execArgv, "--conditions=@playfield/source", "--import", tsx, source, ...process.argv.slice(2)], { stdio: "inherit" });
  // Signals sent to this process (not only a terminal's, which reach both) stop the command too.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
}

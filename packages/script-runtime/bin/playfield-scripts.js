#!/usr/bin/env node
// The `playfield-scripts` command. Installed (the package under
// node_modules) it runs the built dist/cli.js. In a checkout of the
// repository npm links this file before anything is built, so it runs
// src/cli.ts in this same process through tsx, with the workspace's
// "@playfield/source" export condition: a checkout always runs its own
// source, never a stale or missing build. The file is the same in every
// package with a command; only ENTRY differs.
import { sep } from "node:path";
import { fileURLToPath } from "node:url";

const ENTRY = { built: "../dist/cli.js", source: "../src/cli.ts" };

if (fileURLToPath(import.meta.url).split(sep).includes("node_modules")) {
  await import(new URL(ENTRY.built, import.meta.url).href);
} else {
  const { runSource } = await import(new URL("../../../scripts/source/run-source.js", import.meta.url).href);
  await runSource(new URL(ENTRY.source, import.meta.url).href);
}

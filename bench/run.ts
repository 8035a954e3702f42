/*
 * Runs the benchmarks and writes their figures into bench/RESULTS.md, one
 * section per bench file. `npm run bench` runs them all; `npm run bench --
 * http storage` runs those two and keeps the other sections as they were.
 * Each bench prints Markdown tables whose figures carry a ratio against a
 * baseline measured in the same run.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const resultsPath = join(here, "RESULTS.md");
const wanted = process.argv.slice(2);
const files = readdirSync(here).filter((f) => f.endsWith(".bench.ts")).sort();
const chosen = wanted.length ? files.filter((f) => wanted.includes(f.replace(/\.bench\.ts$/, ""))) : files;

const START = (name: string) => `<!-- bench:${name} -->`;
const END = (name: string) => `<!-- /bench:${name} -->`;

function previousSections(): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(resultsPath)) return sections;
  const text = readFileSync(resultsPath, "utf8");
  for (const match of text.matchAll(/<!-- bench:([\w-]+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) sections.set(match[1]!, match[2]!);
  return sections;
}

const sections = previousSections();
for (const file of chosen) {
  const name = file.replace(/\.bench\.ts$/, "");
  console.log(`running ${file} …`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ["--expose-gc", "--conditions=@playfield/source", "--import", "tsx", join(here, file)], {
    encoding: "utf8",
    timeout: 15 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const output = run.status === 0 ? run.stdout.trim() : `**failed** (exit ${run.status ?? run.signal}):\n\n\`\`\`\n${run.stdout.slice(-2000)}\n\`\`\``;
  const when = new Date().toISOString().slice(0, 10);
  sections.set(name, `## ${name}\n\n\`node --expose-gc --conditions=@playfield/source --import tsx bench/${file}\` — ${when}, ${seconds} s\n\n${output}\n\n`);
  console.log(output);
}

const header = `# Benchmark results

Written by \`npm run bench\` (bench/run.ts); \`npm run bench -- <name>\` re-runs
one file. Machine of the last full run: Node ${process.version}, ${cpus().length} CPUs
(${cpus()[0]?.model ?? "unknown"}). The machine is shared and noisy: read the
ratios, which compare against a baseline measured in the same run, rather
than the absolute figures.

`;
const body = files
  .map((f) => f.replace(/\.bench\.ts$/, ""))
  .filter((name) => sections.has(name))
  .map((name) => `${START(name)}\n${sections.get(name)}${END(name)}\n`)
  .join("\n");
writeFileSync(resultsPath, header + body);
console.log(`wrote ${resultsPath}`);

/**
 * Script editor figures: `editor.scripts.check` on a project of 200 script
 * files (against compiling the same sources in a bare QuickJS context), and
 * `script.types` generation time (against JSON.stringify of the same API).
 *
 *   node --conditions=@playfield/source --import tsx bench/script-editor.bench.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGameKinds, createReferenceWorld, createScriptRuntime } from "@playfield/script-runtime";
import { createScriptEditor } from "@playfield/script-runtime/node";
import type { KindsDeclarationInput } from "@playfield/script-runtime";
import { getQuickJS } from "quickjs-emscripten";

const rows: string[] = ["| figure | value | baseline | ratio |", "|---|---|---|---|"];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// --- editor.scripts.check on 200 files: 180 scripts importing 20 modules ----
const project = mkdtempSync(join(tmpdir(), "playfield-bench-"));
mkdirSync(join(project, "scripts/modules"), { recursive: true });
const sources: [string, string][] = [];
for (let m = 0; m < 20; m++) {
  const text = `export const rule${m} = (x) => { let s = 0; for (let i = 0; i < x; i++) s += i % ${m + 2}; return s; };\nexport const NAME${m} = "module ${m}";\n`;
  sources.push([`modules/rule${m}.js`, text]);
}
for (let s = 0; s < 180; s++) {
  const lines = [`import { rule${s % 20} } from "modules/rule${s % 20}";`, "export default {", "  init() { return { n: 0, hits: [] } },", "  onTick(dt) {"];
  for (let l = 0; l < 30; l++) lines.push(`    if (this.state.n % ${l + 3} === 0) this.state.hits.push(rule${s % 20}(${l}));`);
  lines.push("    this.state.n += 1;", "    if (this.state.hits.length > 50) this.state.hits.length = 0;", "  },", "};");
  sources.push([`script${s}.js`, lines.join("\n")]);
}
for (const [path, text] of sources) writeFileSync(join(project, "scripts", path), text);
writeFileSync(join(project, "scripts/scripts.config.json"), JSON.stringify({ players: "everyone", kinds: { Part: { fields: { position: "read" } } } }));

const editor = createScriptEditor({ project, kinds: () => createReferenceWorld(), watch: false });
const checkTimes: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  const result = (await editor.runtime.run("editor.scripts.check")) as { ok: boolean; report: string[] };
  checkTimes.push(performance.now() - started);
  if (!result.ok) throw new Error(result.report.join("\n"));
}
await editor.dispose();

const quickjs = await getQuickJS();
const bareTimes: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  const context = quickjs.newContext();
  for (const [path, text] of sources) {
    // Imports replaced by constants: only the compile is measured.
    const result = context.evalCode(text.replace(/^import .*$/m, "const rule0 = () => 0;"), path, { type: "module", compileOnly: true });
    if (result.error) result.error.dispose(); else result.value.dispose();
  }
  context.dispose();
  bareTimes.push(performance.now() - started);
}
rows.push(`| editor.scripts.check, 200 files (ms, median of 5) | ${median(checkTimes).toFixed(1)} | ${median(bareTimes).toFixed(1)} bare QuickJS compile of the same sources | ${(median(checkTimes) / median(bareTimes)).toFixed(2)} |`);
rmSync(project, { recursive: true, force: true });

// --- script.types generation -------------------------------------------------
const big: KindsDeclarationInput = {
  types: [{ name: "Vector3", fields: [{ name: "x", type: "number" }, { name: "y", type: "number" }, { name: "z", type: "number" }] }],
  kinds: Array.from({ length: 50 }, (_, k) => ({
    kind: `Kind${k}`,
    doc: `Kind number ${k}.`,
    spawnable: k % 2 === 0,
    fields: Array.from({ length: 12 }, (_f, f) => ({ name: `field_${f}`, js: `field${f}`, type: f % 3 === 0 ? "Vector3" : "number", write: f % 2 === 0, range: f % 4 === 0 ? [0, 100] as [number, number] : null, doc: `Field ${f}.` })),
    methods: Array.from({ length: 6 }, (_m, m) => ({ name: `do_thing_${m}`, js: `doThing${m}`, args: [{ name: "amount", type: "number" }], returns: "number", rate_per_s: m, doc: `Method ${m}.` })),
  })),
};
for (const [label, kinds] of [["reference world (3 kinds)", createReferenceWorld()], ["50 kinds × 12 fields × 6 methods", createGameKinds({ declarations: big })]] as const) {
  const runtime = createScriptRuntime({ kinds });
  const time = async (run: () => Promise<unknown>, n: number) => {
    for (let i = 0; i < 5; i++) await run();
    const started = performance.now();
    for (let i = 0; i < n; i++) await run();
    return (performance.now() - started) / n;
  };
  const n = label.startsWith("reference") ? 2000 : 100;
  const api = await runtime.run("script.api");
  const baseline = await time(async () => JSON.stringify(api), n);
  for (const format of ["ts", "py", "md", "json"]) {
    const ms = await time(() => runtime.run("script.types", { format }), n);
    rows.push(`| script.types ${format}, ${label} (µs) | ${(ms * 1000).toFixed(1)} | ${(baseline * 1000).toFixed(1)} JSON.stringify of script.api | ${(ms / baseline).toFixed(1)} |`);
  }
  await runtime.dispose();
}

console.log(rows.join("\n"));

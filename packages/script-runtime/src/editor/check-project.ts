import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveScriptConfig } from "../config/script-config.js";
import type { GameKinds } from "../kinds/game-kinds.js";
import { validateGrants, creatorView } from "../kinds/kind-grants.js";
import { renderTypes } from "../types-gen/render-types.js";
import { createCompileCheck } from "./compile-check.js";
import { createPythonCompileCheck } from "../python/python-compile-check.js";
import { CONFIG_FILE, DECLARATION_FILES } from "./project-folder.js";
import type { ProjectFolder } from "./project-folder.js";
import { TEST_MODULE, TEST_MODULE_SOURCE, runScriptTests } from "./script-tests.js";
import { isPythonTestFile, runPythonTests } from "./python-tests.js";

/** What the check does with the declaration files: write them, or keep those that exist (see `ScriptEditorOptions.declarations`). */
export type DeclarationWrites = "write" | "keep";

/** The result of `editor.scripts.check`. */
export interface CheckResult {
  ok: boolean;
  report: string[];
}

/**
 * Checks a project: compiles every JavaScript script and module (and their
 * imports) and every Python file (syntax, with file and line), validates the script configuration against the kinds, writes
 * the `ts` and `py` declaration files into the scripts folder, and runs the
 * game's own script tests (`*.test.js`, and `test_*.py`: see `runPythonTests`). One report line per file, check
 * and test; `ok` is false when any failed.
 */
export async function checkProject(folder: ProjectFolder, kinds: () => GameKinds | undefined, declarationWrites: DeclarationWrites = "write"): Promise<CheckResult> {
  const report: string[] = [];
  let ok = true;
  const compile = await createCompileCheck();
  let compilePython: Awaited<ReturnType<typeof createPythonCompileCheck>> | undefined;
  const files = folder.files();
  const read = (path: string) => (path === TEST_MODULE ? TEST_MODULE_SOURCE : folder.read(path));
  for (const file of files) {
    const source = folder.read(file.modulePath) ?? "";
    const error = file.language === "py"
      ? (compilePython ??= await createPythonCompileCheck())(file.modulePath, source)
      : compile(file.modulePath, source, read);
    if (error) ok = false;
    report.push(`compile ${file.path}: ${error ? `failed: ${error}` : "ok"}`);
  }

  const { config: raw, problems: fileProblems } = folder.config();
  const { config, problems } = resolveScriptConfig(raw);
  const game = kinds();
  const declarations = game?.declarations ?? { types: [], kinds: [] };
  const all = [...fileProblems, ...problems, ...validateGrants(declarations, config)];
  if (all.length > 0) ok = false;
  if (all.length === 0) report.push(`config scripts/${CONFIG_FILE}: ok${raw === undefined && fileProblems.length === 0 ? " (no file: defaults)" : ""}`);
  for (const problem of all) report.push(`config scripts/${CONFIG_FILE}: ${problem}`);

  mkdirSync(folder.scriptsDir, { recursive: true });
  const view = creatorView(declarations);
  for (const format of ["ts", "py"] as const) {
    const rendered = renderTypes(view, format) as { text: string };
    const file = join(folder.scriptsDir, DECLARATION_FILES[format]);
    const existing = declarationWrites === "keep" ? readIfThere(file) : undefined;
    if (existing !== undefined && existing !== rendered.text) {
      report.push(`types scripts/${DECLARATION_FILES[format]}: kept (it declares other kinds than the ones this check sees; the game's own check writes it)`);
      continue;
    }
    writeFileSync(file, rendered.text);
    report.push(`types scripts/${DECLARATION_FILES[format]}: written`);
  }

  for (const file of files) {
    const run = file.language === "js" ? (file.name.endsWith(".test") ? runScriptTests : undefined) : isPythonTestFile(file.modulePath) ? runPythonTests : undefined;
    if (!run) continue;
    const result = await run({ path: file.path, modulePath: file.modulePath, modules: (p) => folder.read(p), kinds: kinds(), config });
    if (!result.ok) ok = false;
    report.push(...result.lines);
  }
  return { ok, report };
}

function readIfThere(file: string): string | undefined {
  try { return readFileSync(file, "utf8"); } catch { return undefined; }
}

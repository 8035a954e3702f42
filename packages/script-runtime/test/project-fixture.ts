import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";
import { createScriptEditor } from "../src/editor/create-script-editor.js";
import type { ScriptEditor, ScriptEditorOptions } from "../src/editor/create-script-editor.js";
import { createReferenceWorld } from "../src/kinds/reference-world.js";

const made: { editor?: ScriptEditor; dir: string }[] = [];
afterEach(async () => {
  for (const { editor, dir } of made.splice(0)) {
    await editor?.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A temporary project folder with these files (paths from the project folder), removed after the test. */
export function projectWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "playfield-project-"));
  made.push({ dir });
  for (const [path, text] of Object.entries(files)) writeProjectFile(dir, path, text);
  return dir;
}

/** Writes a file of a project (making its folders). */
export function writeProjectFile(dir: string, path: string, text: string): void {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
}

/** An editor over a project with the reference world, disposed after the test. */
export function editorFor(project: string, options: Partial<ScriptEditorOptions> = {}): ScriptEditor {
  const editor = createScriptEditor({ project, kinds: () => createReferenceWorld(), watch: false, ...options });
  made.push({ editor, dir: project });
  return editor;
}

/** Waits until `check` holds (polling every 20 ms), or fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

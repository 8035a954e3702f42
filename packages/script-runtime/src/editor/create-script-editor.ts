import { mkdirSync } from "node:fs";
import { editorCommands } from "../commands/editor-commands.js";
import { createGameKinds } from "../kinds/create-game-kinds.js";
import type { GameKinds } from "../kinds/game-kinds.js";
import { createScriptRuntime } from "../runtime/create-script-runtime.js";
import type { ScriptList, ScriptRuntime, ScriptRuntimeOptions } from "../runtime/create-script-runtime.js";
import { checkProject } from "./check-project.js";
import type { CheckResult, DeclarationWrites } from "./check-project.js";
import { watchFolder } from "./live-reload.js";
import type { FileWatch } from "./live-reload.js";
import { openProjectFolder } from "./project-folder.js";
import type { ProjectFolder } from "./project-folder.js";

/** Options of {@link createScriptEditor}. */
export interface ScriptEditorOptions extends Omit<ScriptRuntimeOptions, "config" | "modules" | "kinds"> {
  /** The project folder; its `scripts/` folder holds the scripts, modules and `scripts.config.json`. */
  project: string;
  /** Makes the game's kinds (with a fresh world): once for the running game, once per script test file. */
  kinds?: () => GameKinds;
  /** Watch the scripts folder for live reload. Default true. */
  watch?: boolean;
  /** Quiet time after a file's last write before it reloads. Default 100 ms. */
  debounceMs?: number;
  /**
   * What `editor.scripts.check` does with the declaration files: `"write"`
   * (the default) writes them from `kinds`; `"keep"` writes only missing
   * ones and leaves a file that differs as it is, for when `kinds` stands in
   * for the game's own (the command line's reference world).
   */
  declarations?: DeclarationWrites;
}

/** The Scripts panel's state. */
export interface PanelState {
  open: boolean;
  live_reload: boolean;
  /** The file open in the source-mode code editor (path from the project folder), or null. */
  editing: string | null;
}

/**
 * ScriptEditor is the game editor's side of scripts: a runtime whose
 * modules come from the project's scripts folder and whose configuration is
 * its `scripts.config.json`, the `editor.scripts.*` commands on the same
 * dispatcher, the Scripts panel's state and live reload.
 */
export interface ScriptEditor {
  readonly runtime: ScriptRuntime;
  readonly folder: ProjectFolder;
  readonly panel: PanelState;
  /** Runs `editor.scripts.check`. */
  check(): Promise<CheckResult>;
  /** Reloads the game's script of a file (if one runs under that name); live reload calls it. */
  fileChanged(modulePath: string): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * Creates a script editor over a project folder.
 *
 * @example
 * const editor = createScriptEditor({ project: "my-game", kinds: () => createReferenceWorld() });
 * await editor.runtime.run("editor.scripts.files");
 * await editor.runtime.run("editor.scripts.check");
 */
export function createScriptEditor(options: ScriptEditorOptions): ScriptEditor {
  const folder = openProjectFolder(options.project);
  mkdirSync(folder.scriptsDir, { recursive: true });
  const makeKinds = options.kinds ?? (() => createGameKinds({ declarations: { kinds: [] } }));
  const gameKinds = makeKinds();
  const { config, problems: fileProblems } = folder.config();
  // A malformed file is a manifest problem like any other, logged at start.
  const kinds: GameKinds = { ...gameKinds, validate: (c) => [...fileProblems, ...gameKinds.validate(c)] };
  const { project: _project, kinds: _kinds, watch: _watch, debounceMs: _debounce, declarations = "write", ...runtimeOptions } = options;
  const runtime = createScriptRuntime({ ...runtimeOptions, config, kinds, modules: (path) => folder.read(path) });
  const panel: PanelState = { open: true, live_reload: true, editing: null };

  const fileChanged = async (modulePath: string) => {
    const language = modulePath.endsWith(".py") ? "py" : modulePath.endsWith(".js") ? "js" : undefined;
    if (!panel.live_reload || !language) return;
    const name = modulePath.slice(0, -3);
    const list = (await runtime.run("script.list")) as ScriptList;
    const running = list.scripts.find((s) => s.name === name && s.principal === "creator");
    // A module is read again by the next load; only a running script reloads now.
    if (!running) return;
    const source = folder.read(modulePath);
    if (source === undefined) return;
    await runtime.run("script.load", { name, source, language });
  };

  const editor: ScriptEditor = {
    runtime,
    folder,
    panel,
    check: () => checkProject(folder, makeKinds, declarations),
    fileChanged,
    async dispose() {
      watcher?.close();
      await runtime.dispose();
    },
  };
  for (const command of editorCommands(editor)) runtime.commands.register(command);
  const watcher: FileWatch | undefined = options.watch === false ? undefined
    : watchFolder(folder.scriptsDir, options.debounceMs ?? 100, (path) => { void fileChanged(path).catch(() => undefined); });
  return editor;
}

/**
 * `@playfield/script-runtime/node`: what needs Node (the file system and
 * HTTP): the project editor (`editor.scripts.*`, live reload, the check) and
 * the command server with the Scripts panel, and engines in worker threads
 * that the host can stop. The main entry stays free of
 * `node:` imports, so the runtime itself runs in browsers too.
 * @module
 */
export { createScriptEditor } from "./editor/create-script-editor.js";
export type { ScriptEditor, ScriptEditorOptions, PanelState } from "./editor/create-script-editor.js";
export { CONFIG_FILE, DECLARATION_FILES } from "./editor/project-folder.js";
export type { CheckResult } from "./editor/check-project.js";
export type { ScriptFileEntry } from "./commands/editor-commands.js";
export { createScriptServer } from "./cli/serve.js";
export type { ScriptServer, ScriptServerOptions } from "./cli/serve.js";
export { workerEngines, STOP_MARGIN_MS } from "./worker/worker-engines.js";
export type { WorkerEnginesOptions } from "./worker/worker-engines.js";

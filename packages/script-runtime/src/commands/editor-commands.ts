import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve, sep } from "node:path";
import { z } from "zod";
import type { ScriptEditor } from "../editor/create-script-editor.js";
import { ErrorCode, ScriptRuntimeError } from "../errors.js";
import type { ScriptHost } from "../runtime/create-script-runtime.js";
import { NoArgs, ScriptName } from "./command-args.js";
import { defineCommand } from "./command-registry.js";
import type { CommandSpec } from "./command-registry.js";

const required = (what: string) => ({ error: (issue: { input?: unknown }) => (issue.input === undefined ? "required argument missing" : `expected ${what}`) });

/** One element of the `editor.scripts.files` result. */
export interface ScriptFileEntry {
  name: string;
  path: string;
  running: boolean;
}

/**
 * The `editor.scripts.*` commands of an editor: the panel, the file list,
 * opening a file in the source-mode editor, live reload and the project
 * check, plus what the panel page needs to show, save and load a file.
 */
export function editorCommands(editor: ScriptEditor): CommandSpec<ScriptHost>[] {
  const fileOf = (name: string) => {
    const file = editor.folder.find(name);
    if (!file) throw new ScriptRuntimeError(ErrorCode.NotFound, `no script file named ${name} in scripts/`);
    return file;
  };
  return [
    defineCommand({
      name: "editor.scripts.panel",
      summary: "Show (open true, the default) or hide the Scripts panel; answers {open}.",
      args: z.object({ open: z.boolean(required("a boolean")).default(true).describe("true shows the panel, false hides it") }),
      run: (args) => {
        editor.panel.open = args.open;
        return { open: editor.panel.open };
      },
    }),
    defineCommand({
      name: "editor.scripts.files",
      summary: "Every .js and .py file in the project's scripts folder: name, path, running.",
      args: NoArgs,
      run: async (_args, host: ScriptHost): Promise<ScriptFileEntry[]> => {
        const list = await host.list();
        return editor.folder.files().map((f) => ({
          name: f.name,
          path: f.path,
          running: f.language === "js" && list.scripts.some((s) => s.name === f.name && !s.paused),
        }));
      },
    }),
    defineCommand({
      name: "editor.scripts.edit",
      summary: "Open a script file (name without extension) in the source-mode code editor; answers {opened: path}.",
      args: z.object({ name: ScriptName }),
      run: (args) => {
        const file = fileOf(args.name);
        editor.panel.open = true;
        editor.panel.editing = file.path;
        return { opened: file.path };
      },
    }),
    defineCommand({
      name: "editor.scripts.live_reload",
      summary: "Turn live reload on or off (on by default); answers {live_reload}.",
      args: z.object({ on: z.boolean(required("a boolean")).describe("true turns live reload on, false off") }),
      run: (args) => {
        editor.panel.live_reload = args.on;
        return { live_reload: editor.panel.live_reload };
      },
    }),
    defineCommand({
      name: "editor.scripts.check",
      summary: "Compile every script and module, validate the configuration, write the ts and py declarations, run the script tests; answers {ok, report}.",
      args: NoArgs,
      run: () => editor.check(),
    }),
    defineCommand({
      name: "editor.scripts.state",
      summary: "The Scripts panel's state: {open, live_reload, editing}.",
      args: NoArgs,
      run: () => ({ ...editor.panel }),
    }),
    defineCommand({
      name: "editor.scripts.source",
      summary: "A script file's text: {name, path, source}.",
      args: z.object({ name: ScriptName }),
      run: (args) => {
        const file = fileOf(args.name);
        return { name: file.name, path: file.path, source: editor.folder.read(file.modulePath) ?? "" };
      },
    }),
    defineCommand({
      name: "editor.scripts.save",
      summary: "Save a script file from the code editor (a new name makes a .js file); live reload reloads it if it runs.",
      args: z.object({ name: ScriptName, source: z.string(required("a string")).max(16 * 1024 * 1024).describe("The file's new text") }),
      run: async (args) => {
        const modulePath = editor.folder.find(args.name)?.modulePath ?? `${args.name}.js`;
        const file = resolve(editor.folder.scriptsDir, modulePath);
        // The name's rule keeps it inside the scripts folder; this holds even if the rule changes.
        if (!file.startsWith(resolve(editor.folder.scriptsDir) + sep)) throw new ScriptRuntimeError(ErrorCode.InvalidArgument, `editor.scripts.save: name: ${args.name} is outside the scripts folder`);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, args.source);
        return { saved: `scripts/${modulePath}` };
      },
    }),
    defineCommand({
      name: "editor.scripts.load",
      summary: "Load (or hot-reload) a script file as the game's own script, as JavaScript (.js) or Python (.py).",
      args: z.object({ name: ScriptName }),
      run: async (args, host: ScriptHost) => {
        const file = fileOf(args.name);
        return host.queueLoad({ name: file.name, source: editor.folder.read(file.modulePath) ?? "", language: file.language, principal: "creator", owner: false, friend: false });
      },
    }),
  ] as CommandSpec<ScriptHost>[];
}


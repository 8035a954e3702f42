import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";

/** The name of the script configuration file in the project's scripts folder. */
export const CONFIG_FILE = "scripts.config.json";
/** The declaration files `editor.scripts.check` writes into the scripts folder. */
export const DECLARATION_FILES = { ts: "playfield.d.ts", py: "playfield.pyi" } as const;

/** One script file of the project. */
export interface ScriptFile {
  /** The path inside the scripts folder without extension (`door`, `modules/math`). */
  name: string;
  /** The path from the project folder (`scripts/door.js`). */
  path: string;
  /** The path inside the scripts folder (`door.js`), as imports name it. */
  modulePath: string;
  language: "js" | "py";
}

/**
 * ProjectFolder is a game project's folder as the editor sees it: its
 * scripts asset folder `scripts/`, the `.js` and `.py` files in it (and its
 * sub-folders, such as `scripts/modules/`), and its configuration file.
 */
export interface ProjectFolder {
  readonly root: string;
  readonly scriptsDir: string;
  /** Every `.js` and `.py` file, sorted by path. */
  files(): ScriptFile[];
  /** The file of a name without extension; `.js` wins over `.py`. */
  find(name: string): ScriptFile | undefined;
  /** A file's text by its path inside the scripts folder, or undefined (never outside the folder). */
  read(modulePath: string): string | undefined;
  /** The configuration file's parsed JSON, or undefined when there is none, with a problem when it is malformed. */
  config(): { config: unknown; problems: string[] };
}

/** Opens a project folder (the scripts folder need not exist yet). */
export function openProjectFolder(root: string): ProjectFolder {
  const projectRoot = resolve(root);
  const scriptsDir = join(projectRoot, "scripts");
  const inside = (modulePath: string) => {
    const file = resolve(scriptsDir, modulePath);
    return file.startsWith(scriptsDir + sep) ? file : undefined;
  };
  const files = (): ScriptFile[] => {
    const found: ScriptFile[] = [];
    const walk = (dir: string) => {
      let entries: string[];
      try { entries = readdirSync(dir); } catch { return; }
      for (const entry of entries.sort()) {
        if (entry.startsWith(".") || entry === "node_modules") continue;
        const full = join(dir, entry);
        let isDir = false;
        try { isDir = statSync(full).isDirectory(); } catch { continue; }
        if (isDir) walk(full);
        else if (/\.(js|py)$/.test(entry)) {
          const modulePath = relative(scriptsDir, full).split(sep).join("/");
          found.push({ name: modulePath.replace(/\.(js|py)$/, ""), path: `scripts/${modulePath}`, modulePath, language: entry.endsWith(".py") ? "py" : "js" });
        }
      }
    };
    walk(scriptsDir);
    return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  };
  return {
    root: projectRoot,
    scriptsDir,
    files,
    find: (name) => {
      const all = files().filter((f) => f.name === name);
      return all.find((f) => f.language === "js") ?? all[0];
    },
    read(modulePath) {
      const file = inside(modulePath);
      if (!file) return undefined;
      try { return readFileSync(file, "utf8"); } catch { return undefined; }
    },
    config() {
      const text = this.read(CONFIG_FILE);
      if (text === undefined) return { config: undefined, problems: [] };
      try {
        return { config: JSON.parse(text) as unknown, problems: [] };
      } catch (error) {
        return { config: undefined, problems: [`scripts/${CONFIG_FILE}: not valid JSON (${error instanceof Error ? error.message : String(error)}); using the defaults`] };
      }
    },
  };
}

import type { ModuleSource } from "../engine/sandbox.js";

/** Most project modules one Python script may import (directly or through others). */
export const MAX_PYTHON_MODULES = 256;

const IMPORT = /^[ \t]*import[ \t]+([^#\n;]+)/gm;
const FROM = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([^#\n;)]+)/gm;

/**
 * The project's Python modules a script may import, read before it loads
 * (the interpreter cannot reach the host while it runs): every module that
 * an `import` or `from … import` line of the script, or of a module found
 * so, may name, by path (`lib/math.py`, `lib/__init__.py`). A name that is
 * not found here is not a project module: importing it raises ImportError
 * in the script, unless it is one of the allowed pure modules.
 *
 * @example
 * scanPythonModules("from lib.math import clamp", read) // Map { "lib/math.py" => "…" }
 */
export function scanPythonModules(source: string, modules: ModuleSource): Map<string, string> {
  const found = new Map<string, string>();
  const tried = new Set<string>();
  const queue: { source: string; name: string; isPackage: boolean }[] = [{ source, name: "", isPackage: false }];
  const tryName = (dotted: string) => {
    const path = dotted.split(".").join("/");
    for (const candidate of [`${path}.py`, `${path}/__init__.py`]) {
      if (tried.has(candidate) || found.size >= MAX_PYTHON_MODULES) continue;
      tried.add(candidate);
      const text = modules(candidate);
      if (text !== undefined) {
        found.set(candidate, text);
        queue.push({ source: text, name: dotted, isPackage: candidate.endsWith("/__init__.py") });
      }
    }
  };
  const withParents = (dotted: string) => {
    const parts = dotted.split(".").filter((p) => p !== "");
    for (let i = 1; i <= parts.length; i++) tryName(parts.slice(0, i).join("."));
  };
  while (queue.length > 0) {
    const { source: text, name, isPackage } = queue.shift()!;
    for (const [, list] of text.matchAll(IMPORT)) {
      for (const item of list!.split(",")) withParents(item.trim().split(/\s+/)[0] ?? "");
    }
    for (const [, from, names] of text.matchAll(FROM)) {
      const dots = /^\.*/.exec(from!)![0].length;
      let base = from!.slice(dots);
      if (dots > 0) {
        const parts = name.split(".");
        const keep = parts.length - (isPackage ? 0 : 1) - (dots - 1);
        base = [...parts.slice(0, Math.max(0, keep)), ...(base ? [base] : [])].join(".");
      }
      if (base) withParents(base);
      for (const item of names!.split(",")) {
        const leaf = item.trim().split(/\s+/)[0] ?? "";
        if (/^\w+$/.test(leaf)) withParents(base ? `${base}.${leaf}` : leaf);
      }
    }
  }
  return found;
}

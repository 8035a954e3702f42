import { getQuickJS } from "quickjs-emscripten";
import { normalizeModuleName } from "../engine/module-names.js";

/** Import specifiers of a module's static `import … from "x"`, `import "x"` and `export … from "x"` (comments aside). */
export function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, " ").replace(/(^|[^:\\])\/\/[^\n]*/g, "$1");
  const found: string[] = [];
  const pattern = /(?:^|[;\s])(?:import|export)\s*(?:[\w*{}\s,$]+\s*from\s*)?["']([^"'\n]+)["']/g;
  for (let m = pattern.exec(code); m !== null; m = pattern.exec(code)) found.push(m[1]!);
  return found;
}

/**
 * Compiles JavaScript modules without running them (QuickJS, compile-only)
 * and checks that their imports name files that exist. Answers one error
 * text per module that does not compile, or undefined.
 */
export async function createCompileCheck(): Promise<(modulePath: string, source: string, read: (path: string) => string | undefined) => string | undefined> {
  const quickjs = await getQuickJS();
  return (modulePath, source, read) => {
    for (const requested of importsOf(source)) {
      const path = normalizeModuleName(modulePath, requested);
      if (read(path) === undefined) return `import "${requested}": module not found (${path})`;
    }
    const runtime = quickjs.newRuntime();
    runtime.setModuleLoader((path) => read(path) ?? { error: new Error(`module not found: ${path}`) }, (base, requested) => normalizeModuleName(base, requested));
    const context = runtime.newContext();
    try {
      const result = context.evalCode(source, modulePath, { type: "module", strict: true, compileOnly: true });
      if (result.error) {
        const error = context.dump(result.error) as { name?: string; message?: string } | string;
        result.error.dispose();
        return typeof error === "object" && error !== null ? `${error.name ?? "Error"}: ${error.message ?? ""}` : String(error);
      }
      result.value.dispose();
      return undefined;
    } finally {
      context.dispose();
      runtime.dispose();
    }
  };
}

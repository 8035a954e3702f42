import ts from "typescript";

/* The code blocks of a Markdown document, and how to type-check and run its TypeScript ones. */

/** One fenced block: its language, its text, and the line it starts on (for messages). */
export interface CodeBlock { lang: string; code: string; line: number; doc: string }

/** The fenced code blocks of a Markdown text. */
export function codeBlocks(doc: string, markdown: string): CodeBlock[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({
    lang: m[1]!, code: m[2]!, doc, line: markdown.slice(0, m.index).split("\n").length,
  }));
}

/** The commands of a shell block, one per line, without their trailing comments. */
export function shellCommands(block: CodeBlock): string[] {
  return block.code.split("\n").map((line) => line.replace(/\s+#.*$/, "").trim()).filter(Boolean);
}

/**
 * The names a block uses without declaring them, from those the docs take as
 * known from the text around the block (`server`, `client`, the test hooks).
 */
export function freeNames(code: string, known: readonly string[]): string[] {
  return known.filter((name) => new RegExp(`\\b${name}\\b`).test(code)
    && !new RegExp(`(?:const|let|var|function|class|type|interface)\\s+${name}\\b|import[^;]*\\b${name}\\b[^;]*from`).test(code));
}

/**
 * Type errors of some modules, compiled together against the workspace's sources.
 * `overrides` narrows the setting, e.g. `{ types: [] }` for a browser package's docs.
 */
export function typeErrors(sources: Map<string, string>, overrides: ts.CompilerOptions = {}): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ["@playfield/source"],
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.esnext.disposable.d.ts"],
    types: ["node"],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    ...overrides,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    const text = sources.get(name);
    return text !== undefined ? ts.createSourceFile(name, text, version) : getSourceFile(name, version, ...rest);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => sources.has(name) || fileExists(name);
  const program = ts.createProgram([...sources.keys()], options, host);
  return [...sources.keys()].flatMap((name) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(name)).map((d) =>
      `${name}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`));
}

/**
 * A TypeScript block as the body of an async function: types stripped, and
 * each `import { a, b as c } from "m"` read from `modules["m"]`, so the block
 * runs with the modules the test imported (through the workspace's sources).
 */
export function asFunctionBody(code: string): string {
  const js = ts.transpileModule(code, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false },
  }).outputText;
  return js
    .replace(/^export \{\};?\s*$/gm, "")
    .replace(/^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";?/gm, (_, names: string, from: string) =>
      `const {${names.replace(/\bas\b/g, ":")}} = __module(${JSON.stringify(from)});`);
}

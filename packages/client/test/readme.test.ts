import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// The README's TypeScript examples must compile against the client as it is.
const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, "../README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);

// Names the examples take as given.
const AMBIENT = `
declare const baseUrl: string;
declare const scopedToken: string;
declare function renderSignedIn(signedIn: boolean): void;
declare const AsyncStorage: { getItem(k: string): Promise<string | null>; setItem(k: string, v: string): Promise<void>; removeItem(k: string): Promise<void> };
`;

function diagnosticsOf(sources: Map<string, string>): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ["@playfield/source"],
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
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

describe("README", () => {
  it("should have TypeScript examples that compile", () => {
    expect(blocks.length).toBeGreaterThan(5);
    const sources = new Map(blocks.map((code, i) => {
      // Examples that use a client without making one get one declared.
      const client = /const client\b/.test(code) ? "" : `declare const client: import("@playfield/client").PlayfieldClient;\n`;
      return [join(here, `readme-example-${i}.ts`), `${AMBIENT}${client}${code}\nexport {};\n`];
    }));
    expect(diagnosticsOf(sources)).toEqual([]);
  }, 30_000);
});

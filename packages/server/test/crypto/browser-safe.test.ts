import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CRYPTO_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../src/crypto");

/** The files a module loads, following relative imports, with the `node:` modules any of them imports. */
function importGraph(entry: string): { files: Set<string>; nodeImports: string[] } {
  const files = new Set<string>();
  const nodeImports: string[] = [];
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(/^\s*(?:import|export)\b[^"']*["']([^"']+)["']/gm)) {
      if (specifier!.startsWith("node:")) nodeImports.push(`${file}: ${specifier}`);
      else if (specifier!.startsWith(".")) visit(resolve(dirname(file), specifier!.replace(/\.js$/, ".ts")));
    }
  };
  visit(resolve(CRYPTO_DIR, entry));
  return { files, nodeImports };
}

describe("crypto modules for browsers and workers", () => {
  const pure = ["jwt-signer.ts", "noble-ed25519.ts", "signing-key.ts", "password-hasher.ts", "noble-scrypt.ts", "random-token.ts", "scrypt-encoding.ts", "crypto-backend.ts"];

  it.each(pure)("should load %s without any node: module", (entry) => {
    expect(importGraph(entry).nodeImports).toEqual([]);
  });

  it("should find node: imports where they are (the check itself works)", () => {
    expect(importGraph("create-token-signer.ts").nodeImports).toHaveLength(1);
    expect(importGraph("create-scrypt-hasher.ts").nodeImports).toHaveLength(1);
  });
});

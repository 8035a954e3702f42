import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { typeErrors } from "../../../scripts/docs/code-blocks.js";

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

describe("README", () => {
  it("should have TypeScript examples that compile", () => {
    expect(blocks.length).toBeGreaterThan(5);
    const sources = new Map(blocks.map((code, i) => {
      // Examples that use a client without making one get one declared.
      const client = /const client\b/.test(code) ? "" : `declare const client: import("@playfield/client").PlayfieldClient;\n`;
      return [join(here, `readme-example-${i}.ts`), `${AMBIENT}${client}${code}\nexport {};\n`];
    }));
    // No Node types: the client's examples are for browsers.
    expect(typeErrors(sources, { types: [] })).toEqual([]);
  }, 30_000);
});

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { generatedFiles } from "./gen/generated-files.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("generated files", () => {
  for (const file of generatedFiles()) {
    it(`should have ${file.path} current with the descriptors (run \`npm run gen\`)`, () => {
      const committed = readFileSync(join(root, file.path), "utf8");
      expect(committed === file.content, `${file.path} is out of date: run npm run gen`).toBe(true);
    });
  }
});

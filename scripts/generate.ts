/*
 * Writes every artifact derived from the API descriptors: the client's wire
 * table, docs/api.md and the .proto file. `scripts/generated.test.ts` fails
 * when a committed artifact is out of date: run `npm run gen`.
 */
import { writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generatedFiles } from "./gen/generated-files.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
for (const file of generatedFiles()) {
  const path = join(root, file.path);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, file.content);
  console.log(`wrote ${file.path}`);
}

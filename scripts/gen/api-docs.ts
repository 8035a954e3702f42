import type { GeneratedFile } from "./generated-files.js";

/** Not written yet. */
export function apiDocs(): GeneratedFile[] {
  return [];
}

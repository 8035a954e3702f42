import type { GeneratedFile } from "./generated-files.js";

/** Not written yet. */
export function protoFile(): GeneratedFile[] {
  return [];
}

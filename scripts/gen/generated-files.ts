import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { clientTable } from "./client-table.js";
import { apiDocs } from "./api-docs.js";
import { protoFile } from "./proto.js";
import { realtimeDocs } from "./realtime-docs.js";
import { adminApiFiles } from "./admin-api.js";

/** A file derived from the descriptors, with its path from the repository root. */
export interface GeneratedFile {
  path: string;
  content: string;
}

/** The repository root: docs/realtime.md's hand-written text is read from there. */
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Every generated file, in a stable order. */
export function generatedFiles(): GeneratedFile[] {
  return [...clientTable(), ...apiDocs(), ...protoFile(), ...realtimeDocs(root), ...adminApiFiles()];
}

import { clientTable } from "./client-table.js";
import { apiDocs } from "./api-docs.js";
import { protoFile } from "./proto.js";

/** A file derived from the descriptors, with its path from the repository root. */
export interface GeneratedFile {
  path: string;
  content: string;
}

/** Every generated file, in a stable order. */
export function generatedFiles(): GeneratedFile[] {
  return [...clientTable(), ...apiDocs(), ...protoFile()];
}

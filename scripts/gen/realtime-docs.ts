import { readFileSync } from "node:fs";
import { join } from "node:path";
import { realtime } from "@playfield/core";
import type { z } from "zod";
import type { GeneratedFile } from "./generated-files.js";
import { codeSpan, fieldRules, jsonSchemaOf, type JsonSchema } from "./field-rules.js";

/*
 * The tables of docs/realtime.md — close codes, client frames, server
 * events — derived from the realtime schemas in the core. The prose around
 * them is written by hand; each table sits between a `<!-- generated: name -->`
 * line and `<!-- end generated -->`.
 */

export const REALTIME_DOCS_PATH = "docs/realtime.md";

/** Escapes text for a table cell; `<` outside code spans would read as HTML. */
const cell = (text: string) =>
  text.split(/(`[^`]*`)/).map((part) => (part.startsWith("`") ? part : part.replace(/</g, "&lt;").replace(/>/g, "&gt;"))).join("")
    .replace(/\|/g, "\\|").replace(/\n/g, " ");

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

interface Meta { description?: string; sentTo?: string }
type ObjectSchema = z.ZodObject<z.ZodRawShape & { type: z.ZodLiteral<string> }>;

const metaOf = (schema: z.ZodType) => (schema.meta() ?? {}) as Meta;

/** The fields of a frame or event (not `type`), each with its rules in words. */
function fieldsText(schema: ObjectSchema): string {
  const json = jsonSchemaOf(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  const fields = Object.keys(schema.shape).filter((name) => name !== "type").map((name) => {
    const property = properties[name] ?? {};
    const ref = typeof property.$ref === "string" ? property.$ref.slice(property.$ref.lastIndexOf("/") + 1) : undefined;
    const items = property.items as JsonSchema | undefined;
    const itemRef = typeof items?.$ref === "string" ? items.$ref.slice(items.$ref.lastIndexOf("/") + 1) : undefined;
    const rules = [
      ...(ref ? [ref] : itemRef ? [`list of ${itemRef}`] : []),
      ...(required.has(name) ? [] : ["optional"]),
      ...fieldRules(property),
    ];
    return rules.length > 0 ? `\`${name}\` (${rules.join("; ")})` : `\`${name}\``;
  });
  return fields.length > 0 ? fields.join(", ") : "—";
}

const typeOf = (schema: ObjectSchema) => codeSpan(schema.shape.type.value);

function closeCodes(): string {
  const rows = Object.entries(realtime.REALTIME_CLOSE_CODE_DOCS)
    .sort(([a], [b]) => (Number(a) >= 4000 ? 0 : 1) - (Number(b) >= 4000 ? 0 : 1) || Number(a) - Number(b))
    .map(([code, doc]) => [code, doc.when, doc.client]);
  return table(["close code", "when", "what the client does"], rows);
}

function clientFrames(): string {
  return table(["type", "fields", "rule"], realtime.CLIENT_FRAME_SCHEMAS.map((schema) => [
    typeOf(schema as ObjectSchema), fieldsText(schema as ObjectSchema), metaOf(schema).description ?? "",
  ]));
}

function serverEvents(): string {
  const member = jsonSchemaOf(realtime.RealtimeMember);
  const memberFields = Object.keys((member.properties ?? {}) as object).map((name) => `\`${name}\``).join(", ");
  return [
    table(["type", "fields", "what it says", "sent to"], realtime.SERVER_EVENT_SCHEMAS.map((schema) => [
      typeOf(schema as ObjectSchema), fieldsText(schema as ObjectSchema), metaOf(schema).description ?? "", metaOf(schema).sentTo ?? "",
    ])),
    "",
    `UserSummary is the API's (\`id\`, \`username\`, \`displayName\`, \`headshotUrl\`); a RealtimeMember is ${memberFields}.`,
  ].join("\n");
}

const SECTIONS: Record<string, () => string> = {
  "close-codes": closeCodes,
  "client-frames": clientFrames,
  "server-events": serverEvents,
};

/** docs/realtime.md with every generated table rendered again into the hand-written text. */
export function renderRealtimeDocs(current: string): string {
  return current.replace(/(<!-- generated: ([\w-]+) -->\n)[\s\S]*?(<!-- end generated -->)/g, (whole, open: string, name: string, close: string) => {
    const render = Object.hasOwn(SECTIONS, name) ? SECTIONS[name] : undefined;
    if (!render) throw new Error(`${REALTIME_DOCS_PATH}: no generated section named ${name}`);
    return `${open}${render()}\n${close}`;
  });
}

export function realtimeDocs(root: string): GeneratedFile[] {
  return [{ path: REALTIME_DOCS_PATH, content: renderRealtimeDocs(readFileSync(join(root, REALTIME_DOCS_PATH), "utf8")) }];
}

import { API_PACKAGE, AuthLevel, codeToHttpStatus, messageName, services, shapeTable, type Code, type FieldInfo, type FieldShape, type MethodDesc, type ServiceDesc, type ShapeTable } from "@playfield/core";
import type { GeneratedFile } from "./generated-files.js";
import { authLevelMeaning, authLevelWords } from "./auth-level-words.js";
import { fieldRules, messageJsonSchemas, type JsonSchema } from "./field-rules.js";
import { PROTO_PATH, protoFieldType } from "./proto.js";

/*
 * docs/api.md, the API reference, derived from the service descriptors and
 * the zod schemas: nothing in it is written by hand but the protocol notes.
 */

/** Where the API reference goes, from the repository root. */
export const API_DOCS_PATH = "docs/api.md";

/** What each error code means, in the spec's words where it has them. */
const codeMeaning: Record<Code, string> = {
  invalid_argument: "A field is missing or invalid; the message names the field and its rule.",
  failed_precondition: "The request is valid but the state forbids it (for example not enough Credits).",
  unauthenticated: "No token, or the token is invalid, expired or ended (signed out, password changed).",
  permission_denied: "The caller may not do this (a guest, someone else's game, a scoped token outside its scope).",
  not_found: "The record does not exist or is not visible to the caller.",
  already_exists: "A unique value is taken (for example a username).",
  resource_exhausted: "Too many requests, or a datastore rate or size cap reached; slow down and retry.",
  internal: "Server failure.",
  unimplemented: "No such service or method.",
  unavailable: "The server cannot answer now; retry later.",
  deadline_exceeded: "The call took too long.",
  canceled: "The caller canceled the call.",
};

/** The heading anchor GitHub gives a heading's text. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

const link = (text: string, heading: string) => `[${text}](#${anchorOf(heading)})`;

/** Escapes text for a Markdown table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n");
}

/** What a reference reads of a method: the platform's descriptors and the admin API's both have it. */
export interface DocMethod {
  name: string;
  path: string;
  summary: string;
  input: MethodDesc["input"];
  output: MethodDesc["output"];
}
/** What a reference reads of a service. */
export interface DocService<M extends DocMethod = DocMethod> {
  typeName: string;
  summary: string;
  methods: Record<string, M>;
}

export const serviceName = (service: DocService) => service.typeName.slice(service.typeName.lastIndexOf(".") + 1);
const methodHeading = (service: DocService, method: DocMethod) => `${serviceName(service)}.${method.name}`;
const methodsOf = <M extends DocMethod>(service: DocService<M>) => Object.values(service.methods);
const scopesText = (method: MethodDesc) => method.scopes.length > 0 ? method.scopes.map((s) => `\`${s}\``).join(", ") : "—";

/** A field's type in proto terms, with message and enum names linked to their sections. */
function typeCell(field: FieldInfo, named: ReadonlySet<string>): string {
  return protoFieldType(field)
    .replace(/(?<![.\w])[A-Z]\w*/g, (name) => named.has(name) ? link(name, name) : name)
    .replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

interface Context {
  shapes: ShapeTable;
  json: Record<string, JsonSchema>;
  /** Names of messages and enums, which have a section to link to. */
  named: ReadonlySet<string>;
}

function fieldTable(ctx: Context, name: string): string {
  const shape = ctx.shapes[name];
  if (!shape || shape.fields.length === 0) return "No fields: the JSON is `{}`.";
  const properties = (ctx.json[name]?.properties ?? {}) as Record<string, JsonSchema>;
  const rows = shape.fields.map((field) => [
    `\`${field.name}\``,
    typeCell(field, ctx.named),
    cell(fieldRules(properties[field.name] ?? {}, field.shape).join("; ")),
  ]);
  // A Rules column with nothing in it is noise.
  if (rows.every((row) => row[2] === "")) return table(["Field", "Type"], rows.map((row) => row.slice(0, 2)));
  return table(["Field", "Type", "Rules"], rows);
}

function protocolSection(): string {
  return `## Protocol

The API is the unary JSON form of the [Connect protocol](https://connectrpc.com/docs/protocol/), with the proto3 JSON mapping. The same API as a proto file: [\`${PROTO_PATH.replace(/^docs\//, "")}\`](${PROTO_PATH.replace(/^docs\//, "")}).

- Every method is \`POST /${API_PACKAGE}.<Service>/<Method>\` with \`Content-Type: application/json\` and the request message as the JSON body. An empty body is the same as \`{}\`.
- Field names are camelCase; requests may use snake_case names too. Unknown request fields are ignored.
- \`int64\` values are written as decimal strings (requests may send numbers). Enums are written as their value names. \`bytes\` are base64. Timestamps are RFC 3339 strings in UTC.
- Responses leave out fields at their default value (\`0\`, \`""\`, \`false\`, empty list or map); a missing field reads as its default. Fields marked \`optional\` and message fields have explicit presence: left out means unset.
- Methods that need a caller take \`Authorization: Bearer <token>\` (an access token, a scoped token, or a game token: see [Auth levels](#auth-levels)).
- The optional header \`x-svc-client\` names the client; it becomes the device label in the account's device list.
- An unknown service or method answers HTTP 404 with code \`unimplemented\`.`;
}

function authSection(): string {
  const rows = Object.values(AuthLevel).map((level) => [authLevelWords[level], cell(authLevelMeaning[level])]);
  return `## Auth levels

${table(["Auth", "Who may call"], rows)}

Scoped tokens (from \`IdentityService.IssueScopedToken\`, scope \`studio\` or \`avatar\`) reach only the methods whose *Scoped tokens* column lists their scope, and methods with auth None, which ignore tokens; anywhere else they get \`permission_denied\`. The auth level holds for them too: a guest's scoped token does not reach an Account method. A game token reaches only the Game token methods.`;
}

export function errorSection(): string {
  const rows = (Object.keys(codeToHttpStatus) as Code[]).map((code) => [`\`${code}\``, String(codeToHttpStatus[code]), cell(codeMeaning[code])]);
  return `## Errors

A failed call answers an HTTP error status and a JSON body \`{"code": "…", "message": "…"}\`. For \`invalid_argument\` the body may carry \`details\`: a list of \`{"path": […], "message": "…"}\`, one per invalid field.

${table(["Code", "HTTP status", "Meaning"], rows)}`;
}

/** Who may call a method, as a reference shows it: the columns of the service table, and the line under a method's heading. */
export interface AccessWords<M> {
  head: readonly string[];
  cells(method: M): string[];
  line(method: M): string;
}

const platformAccess: AccessWords<MethodDesc> = {
  head: ["Auth", "Scoped tokens"],
  cells: (method) => [authLevelWords[method.auth], scopesText(method)],
  line: (method) => `Auth: ${authLevelWords[method.auth]}${method.scopes.length > 0 ? ` · Scoped tokens: ${scopesText(method)}` : ""}`,
};

function methodSection<M extends DocMethod>(ctx: Context, service: DocService<M>, method: M, access: AccessWords<M>): string {
  const input = messageName(method.input);
  const output = messageName(method.output);
  return `### ${methodHeading(service, method)}

${method.summary}

\`POST ${method.path}\` · ${access.line(method)}

Request: ${link(input, input)}

${fieldTable(ctx, input)}

Response: ${link(output, output)}

${fieldTable(ctx, output)}`;
}

function serviceSection<M extends DocMethod>(ctx: Context, service: DocService<M>, access: AccessWords<M>): string {
  const methods = methodsOf(service);
  const parts = [`## ${serviceName(service)}`, service.summary];
  if (methods.length === 0) {
    parts.push("No methods yet.");
    return parts.join("\n\n");
  }
  const rows = methods.map((method) => [
    link(method.name, methodHeading(service, method)),
    `\`${method.path}\``,
    ...access.cells(method),
    cell(method.summary),
  ]);
  parts.push(table(["Method", "Path", ...access.head, "Summary"], rows));
  parts.push(...methods.map((method) => methodSection(ctx, service, method, access)));
  return parts.join("\n\n");
}

function enumsOf(shapes: ShapeTable): Map<string, readonly string[]> {
  const enums = new Map<string, readonly string[]>();
  const visit = (shape: FieldShape): void => {
    if (shape.kind === "enum") enums.set(shape.name, shape.values);
    if (shape.kind === "list") visit(shape.item);
    if (shape.kind === "map") visit(shape.value);
  };
  for (const message of Object.values(shapes)) for (const field of message.fields) visit(field.shape);
  return enums;
}

/** Where each message is used: as a method's request or response, or inside another message. */
function usesOf(shapes: ShapeTable, serviceList: readonly DocService[]): Map<string, string[]> {
  const uses = new Map<string, string[]>();
  const add = (name: string, use: string) => {
    const list = uses.get(name) ?? [];
    if (!list.includes(use)) list.push(use);
    uses.set(name, list);
  };
  for (const service of serviceList) {
    for (const method of methodsOf(service)) {
      const heading = methodHeading(service, method);
      const [input, output] = [messageName(method.input), messageName(method.output)];
      if (input === output) add(input, `${link(heading, heading)} request and response`);
      else {
        add(input, `${link(heading, heading)} request`);
        add(output, `${link(heading, heading)} response`);
      }
    }
  }
  const visit = (owner: string, shape: FieldShape): void => {
    if (shape.kind === "message" || shape.kind === "enum") add(shape.name, `field of ${link(owner, owner)}`);
    if (shape.kind === "list") visit(owner, shape.item);
    if (shape.kind === "map") visit(owner, shape.value);
  };
  for (const message of Object.values(shapes)) for (const field of message.fields) visit(message.name, field.shape);
  return uses;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function messagesSection(ctx: Context, uses: Map<string, string[]>): string {
  const sections = Object.keys(ctx.shapes).sort(byName).map((name) =>
    `### ${name}\n\nUsed by: ${(uses.get(name) ?? []).join(", ") || "—"}\n\n${fieldTable(ctx, name)}`);
  return ["## Messages", "Every message type of the API, by name.", ...sections].join("\n\n");
}

function enumsSection(enums: Map<string, readonly string[]>, uses: Map<string, string[]>): string {
  if (enums.size === 0) return "";
  const sections = [...enums.keys()].sort(byName).map((name) => {
    const rows = enums.get(name)!.map((value, i) => [`\`${value}\``, String(i)]);
    return `### ${name}\n\nUsed by: ${(uses.get(name) ?? []).join(", ")}\n\nWritten in JSON as the value name; the first value is the default.\n\n${table(["Value", "Number"], rows)}`;
  });
  return ["## Enums", ...sections].join("\n\n");
}

/** What sets one reference apart: its title, the sections before the services, and how it says who may call a method. */
export interface ReferenceParts<M extends DocMethod> {
  title: string;
  /** The sections before the services: `[heading, text]`. */
  intro: readonly (readonly [string, string])[];
  access: AccessWords<M>;
}

/** The text of the API reference for the given services and their wire shapes. */
export function renderApiDocs(serviceList: readonly ServiceDesc[], shapes: ShapeTable): string {
  return renderReference(serviceList, shapes, {
    title: "Playfield API reference",
    intro: [["Protocol", protocolSection()], ["Auth levels", authSection()], ["Errors", errorSection()]],
    access: platformAccess,
  });
}

/** A reference of any described API: the services, then every message and enum. */
export function renderReference<M extends DocMethod>(serviceList: readonly DocService<M>[], shapes: ShapeTable, reference: ReferenceParts<M>): string {
  const schemas = serviceList.flatMap((service) => methodsOf(service).flatMap((m) => [m.input, m.output]));
  const enums = enumsOf(shapes);
  const ctx: Context = { shapes, json: messageJsonSchemas(schemas), named: new Set([...Object.keys(shapes), ...enums.keys()]) };
  const uses = usesOf(shapes, serviceList);
  const contents = [
    ...reference.intro.map(([heading]) => link(heading, heading)),
    ...serviceList.map((service) => link(serviceName(service), serviceName(service))),
    link("Messages", "Messages"), ...(enums.size > 0 ? [link("Enums", "Enums")] : []),
  ];
  const parts = [
    `# ${reference.title}`,
    "<!-- Generated by `npm run gen` (scripts/gen/api-docs.ts) from the service descriptors in packages/core. Do not edit by hand. -->",
    "> Generated by `npm run gen` from the service descriptors and schemas in `@playfield/core`. Do not edit this file: change the descriptors and run `npm run gen`.",
    contents.map((item) => `- ${item}`).join("\n"),
    ...reference.intro.map(([, text]) => text),
    ...serviceList.map((service) => serviceSection(ctx, service, reference.access)),
    messagesSection(ctx, uses),
    enumsSection(enums, uses),
  ];
  return `${parts.filter((part) => part !== "").join("\n\n")}\n`;
}

/** docs/api.md for every service in @playfield/core. */
export function apiDocs(): GeneratedFile[] {
  return [{ path: API_DOCS_PATH, content: renderApiDocs(Object.values(services), shapeTable()) }];
}

import { ADMIN_API_PACKAGE, OPERATOR_ROLES, adminServices, adminShapeTable, type AdminMethodDesc, type AdminServiceDesc } from "@playfield/core";
import type { GeneratedFile } from "./generated-files.js";
import { anchorOf, errorSection, renderReference, serviceName, type AccessWords } from "./api-docs.js";
import { PROTO_ROOT, renderProtoOf } from "./proto.js";

/*
 * The admin API's reference (docs/admin-api-reference.md, with the table of
 * which role may call which method) and its .proto, derived from the admin
 * descriptors as the platform's are from theirs.
 */

export const ADMIN_DOCS_PATH = "docs/admin-api-reference.md";
export const ADMIN_PROTO_PATH = `${PROTO_ROOT}/${ADMIN_API_PACKAGE.replaceAll(".", "/")}/admin.proto`;

const rolesText = (method: AdminMethodDesc) => (method.roles.length === 0 ? "anyone (no token)" : method.roles.join(", "));

const access: AccessWords<AdminMethodDesc> = {
  head: ["Roles", "Audited"],
  cells: (method) => [rolesText(method), method.audited ? "yes" : "—"],
  line: (method) => `Roles: ${rolesText(method)}${method.audited ? " · Audited" : ""}`,
};

const methodsOf = (service: AdminServiceDesc) => Object.values(service.methods) as AdminMethodDesc[];

/** Which role may call which method: one row per method, one column per role. */
function rolesSection(): string {
  const head = ["Method", ...OPERATOR_ROLES];
  const rows = Object.values(adminServices).flatMap((service: AdminServiceDesc) => methodsOf(service).map((method) => {
    const heading = `${serviceName(service)}.${method.name}`;
    const marks = OPERATOR_ROLES.map((role) => (method.roles.length === 0 || method.roles.includes(role) ? "✓" : "—"));
    return [`[${heading}](#${anchorOf(heading)})`, ...marks];
  }));
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return `## Roles

Every admin method lists the operator roles that may call it; any other role gets \`permission_denied\`, and a call without a live operator token \`unauthenticated\`. Player tokens never reach the admin API, and operator tokens never reach the platform API.

${[line(head), line(head.map(() => "---")), ...rows.map(line)].join("\n")}`;
}

function protocolSection(): string {
  return `## Protocol

The same Connect unary JSON as the platform API ([api.md](api.md#protocol)), under the proto package \`${ADMIN_API_PACKAGE}\`: \`POST /${ADMIN_API_PACKAGE}.<Service>/<Method>\` with a JSON body, served on the admin listener only. The API as a proto file: [\`${ADMIN_PROTO_PATH.replace(/^docs\//, "")}\`](${ADMIN_PROTO_PATH.replace(/^docs\//, "")}).

- Sign in with \`OperatorService.SignIn\`; send the operator token it answers as \`Authorization: Bearer <token>\`. It lasts one hour, and ends at sign-out or when the operator is removed.
- Every answer carries \`x-request-id\`: the caller's, when it sent a well-formed one (1 to 128 of \`A-Z a-z 0-9 . _ : @ / + = -\`), else a new one. Audit entries record it.
- Every action that changes something writes an audit entry in the same transaction (the *Audited* column).`;
}

/** The admin reference and the admin .proto. */
export function adminApiFiles(): GeneratedFile[] {
  const serviceList = Object.values(adminServices) as AdminServiceDesc[];
  const shapes = adminShapeTable();
  const reference = renderReference(serviceList, shapes, {
    title: "Playfield admin API reference",
    intro: [["Protocol", protocolSection()], ["Roles", rolesSection()], ["Errors", errorSection()]],
    access,
  }).replace("(scripts/gen/api-docs.ts)", "(scripts/gen/admin-api.ts)");
  const proto = renderProtoOf(shapes, serviceList, ADMIN_API_PACKAGE, (method: AdminMethodDesc) => `Roles: ${rolesText(method)}.`);
  return [{ path: ADMIN_DOCS_PATH, content: reference }, { path: ADMIN_PROTO_PATH, content: proto }];
}

import type { AuthLevel } from "@playfield/core";
import type { FieldShape, ScalarType, ShapeTable } from "@playfield/core/wire";
import { ENUMS, MESSAGES, SERVICES } from "./generated/api-table.js";

/** What the client knows of one API method at run time. */
export interface MethodInfo {
  /** Fully qualified service name: `svc.platform.v1.IdentityService`. */
  service: string;
  /** Wire name: `GetMe`. */
  name: string;
  /** Name on the client: `getMe`. */
  localName: string;
  /** `/svc.platform.v1.IdentityService/GetMe` */
  path: string;
  /** The platform's auth level, or `operator` for admin methods that need an operator token. */
  auth: AuthLevel | "operator";
  /** Name of the answer's message in `shapes`. */
  output: string;
}

/** The run-time API table: methods by service and method local name, and the wire shapes of answers. */
export interface ApiTable {
  services: Record<string, Record<string, MethodInfo>>;
  shapes: ShapeTable;
}

const SCALARS: Record<string, ScalarType> = { s: "string", b: "bool", i: "int32", l: "int64", d: "double", y: "bytes" };

const words = (text: string | undefined) => (text ? text.split(" ") : []);

/**
 * Reads the generated table (see its header for the grammar) into method
 * infos and wire shapes.
 */
export function readApiTable(
  services: Record<string, string> = SERVICES,
  messages: Record<string, string> = MESSAGES,
  enums: Record<string, string> = ENUMS,
): ApiTable {
  const enumValues: Record<string, string[]> = {};
  const fieldShape = (code: string): FieldShape => {
    const rest = code.slice(1);
    switch (code[0]) {
      case "=": return { kind: "enum", name: rest, values: (enumValues[rest] ??= words(enums[rest])) };
      case ".": return { kind: "message", name: rest };
      case "*": return { kind: "list", item: fieldShape(rest) };
      case "{": return { kind: "map", key: "string", value: fieldShape(rest) };
      case "%": return { kind: "map", key: "int32", value: fieldShape(rest) };
      default: return { kind: "scalar", type: SCALARS[code]! };
    }
  };

  const shapes: ShapeTable = {};
  for (const [name, fields] of Object.entries(messages)) {
    shapes[name] = {
      name,
      fields: words(fields).map((field) => {
        const colon = field.indexOf(":");
        const optional = field.endsWith("?");
        return { name: field.slice(0, colon), shape: fieldShape(field.slice(colon + 1, optional ? -1 : undefined)), optional };
      }),
    };
  }

  const table: ApiTable["services"] = {};
  for (const [key, line] of Object.entries(services)) {
    const [service = "", ...methods] = words(line);
    const byName: Record<string, MethodInfo> = (table[key] = {});
    for (const method of methods) {
      const [name = "", auth, output = ""] = method.split(":");
      const localName = name[0]!.toLowerCase() + name.slice(1);
      byName[localName] = { service, name, localName, path: `/${service}/${name}`, auth: auth as MethodInfo["auth"], output };
    }
  }
  return { services: table, shapes };
}

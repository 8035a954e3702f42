import { API_PACKAGE, messageName, services, shapeTable, snakeCase, type FieldInfo, type FieldShape, type MethodDesc, type ServiceDesc, type ShapeTable } from "../../packages/core/src/index.js";
import type { GeneratedFile } from "./generated-files.js";
import { authLevelWords } from "./auth-level-words.js";

/*
 * The .proto file of the whole API, derived from the wire shapes and the
 * service descriptors, so that any Connect or gRPC toolchain can call the
 * server. Field names are the snake_case of ours, so that the proto3 JSON
 * names protoc derives are exactly the camelCase names on the wire.
 */

/** Where the .proto file goes, from the repository root: the path mirrors the package, as buf expects. */
export const PROTO_PATH = `docs/proto/${API_PACKAGE.replaceAll(".", "/")}/platform.proto`;

/** Imports a proto file needs for the well-known types it falls back on. */
const STRUCT_IMPORT = "google/protobuf/struct.proto";

/**
 * The proto type of a field's value, as written after `repeated` or inside
 * `map<…>`. Proto forbids a list or a map as a list item or a map value; on the
 * JSON wire those are plain arrays and objects, which `google.protobuf.ListValue`
 * and `google.protobuf.Struct` carry (untyped, but the same JSON).
 */
function valueType(shape: FieldShape): string {
  switch (shape.kind) {
    case "scalar": return shape.type;
    case "enum": return shape.name;
    case "message": return shape.name;
    case "list": return "google.protobuf.ListValue";
    case "map": return "google.protobuf.Struct";
  }
}

/**
 * The type of a field in proto terms, without a label: `int64`, `AgeBand`,
 * `repeated Device`, `map<string, int64>`.
 *
 * @example
 * protoType({ kind: "list", item: { kind: "message", name: "Device" } }) // "repeated Device"
 */
export function protoType(shape: FieldShape): string {
  switch (shape.kind) {
    case "list": return `repeated ${valueType(shape.item)}`;
    case "map": return `map<${shape.key}, ${valueType(shape.value)}>`;
    default: return valueType(shape);
  }
}

/**
 * The full proto declaration type of a field: its type, with `optional` for
 * a scalar or enum with explicit presence (message fields have presence
 * already, and lists and maps cannot take the label).
 */
export function protoFieldType(field: FieldInfo): string {
  const optional = field.optional && (field.shape.kind === "scalar" || field.shape.kind === "enum");
  return `${optional ? "optional " : ""}${protoType(field.shape)}`;
}

function usesStruct(shape: FieldShape): boolean {
  if (shape.kind === "list") return shape.item.kind === "list" || shape.item.kind === "map";
  if (shape.kind === "map") return shape.value.kind === "list" || shape.value.kind === "map";
  return false;
}

/** Every enum the messages use, by name, in order of first use. */
function enumsOf(table: ShapeTable): Map<string, readonly string[]> {
  const enums = new Map<string, readonly string[]>();
  const visit = (shape: FieldShape): void => {
    if (shape.kind === "enum" && !enums.has(shape.name)) enums.set(shape.name, shape.values);
    if (shape.kind === "list") visit(shape.item);
    if (shape.kind === "map") visit(shape.value);
  };
  for (const message of Object.values(table)) for (const field of message.fields) visit(field.shape);
  return enums;
}

function renderEnum(name: string, values: readonly string[]): string {
  // The first value is the default, which proto3 requires to be number 0.
  const lines = values.map((value, i) => `  ${value} = ${i};`);
  return `enum ${name} {\n${lines.join("\n")}\n}`;
}

function renderMessage(name: string, fields: readonly FieldInfo[]): string {
  if (fields.length === 0) return `message ${name} {}`;
  const lines = fields.map((field, i) => `  ${protoFieldType(field)} ${snakeCase(field.name)} = ${i + 1};`);
  return `message ${name} {\n${lines.join("\n")}\n}`;
}

function comment(text: string, indent = ""): string {
  return `${indent}// ${text}`;
}

function rpcComment(method: MethodDesc): string {
  const scopes = method.scopes.length > 0 ? ` Scoped tokens: ${method.scopes.join(", ")}.` : "";
  return `${method.summary} Auth: ${authLevelWords[method.auth]}.${scopes}`;
}

function renderService(service: ServiceDesc): string {
  const name = service.typeName.slice(service.typeName.lastIndexOf(".") + 1);
  const rpcs = (Object.values(service.methods) as MethodDesc[]).map((method) =>
    `${comment(rpcComment(method), "  ")}\n  rpc ${method.name}(${messageName(method.input)}) returns (${messageName(method.output)});`);
  const body = rpcs.length === 0 ? "{}" : `{\n${rpcs.join("\n\n")}\n}`;
  return `${comment(service.summary)}\nservice ${name} ${body}`;
}

/** The text of the .proto file for the given wire shapes and services. */
export function renderProto(table: ShapeTable, serviceList: readonly ServiceDesc[]): string {
  const messages = Object.values(table);
  const needsStruct = messages.some((message) => message.fields.some((field) => usesStruct(field.shape)));
  const parts = [
    [
      comment("Generated by `npm run gen` from the service descriptors in @playfield/core. Do not edit."),
      comment("Field names are snake_case; their proto3 JSON names are the camelCase names the API uses."),
    ].join("\n"),
    `syntax = "proto3";`,
    `package ${API_PACKAGE};`,
    ...(needsStruct ? [`import "${STRUCT_IMPORT}";`] : []),
    ...[...enumsOf(table)].map(([name, values]) => renderEnum(name, values)),
    ...messages.map((message) => renderMessage(message.name, message.fields)),
    ...serviceList.map(renderService),
  ];
  return `${parts.join("\n\n")}\n`;
}

/** The .proto file of every service in @playfield/core. */
export function protoFile(): GeneratedFile[] {
  return [{ path: PROTO_PATH, content: renderProto(shapeTable(), Object.values(services)) }];
}

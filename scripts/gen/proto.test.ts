import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import fc from "fast-check";
import { allMethods, defineService, int32, int64, list, map, message, protoEnum, services, shapeTable, snakeCase, string, addMessage, type ShapeTable } from "@playfield/core";
import { PROTO_PATH, PROTO_ROOT, protoFile, protoType, renderProto } from "./proto.js";

const buf = join(dirname(createRequire(import.meta.url).resolve("@bufbuild/buf/package.json")), "bin", "buf");
const workDirs: string[] = [];
afterAll(() => { for (const dir of workDirs) rmSync(dir, { recursive: true, force: true }); });

interface BufResult { ok: boolean; output: string; image?: FileDescriptorSet }
interface FileDescriptorSet { file: { name: string; package?: string; messageType?: { name: string; field?: { name: string; number: number; jsonName: string; label: string; type: string; typeName?: string; proto3Optional?: boolean }[] }[]; service?: { name: string; method?: { name: string; inputType: string; outputType: string }[] }[]; enumType?: { name: string; value: { name: string; number: number }[] }[] }[] }

/** Runs buf in a module directory; returns its output when it fails. */
function runBuf(args: readonly string[]): { ok: boolean; output: string } {
  try {
    execFileSync(buf, args, { stdio: "pipe", encoding: "utf8" });
    return { ok: true, output: "" };
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    return { ok: false, output: `${e.stderr ?? ""}${e.stdout ?? ""}` || e.message };
  }
}

/** Writes files (paths inside the module) into a fresh directory, with a bare buf.yaml unless one is given. */
function writeModule(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "playfield-proto-"));
  workDirs.push(dir);
  for (const [path, content] of Object.entries({ "buf.yaml": "version: v2\n", ...files })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** Compiles a buf module; returns buf's output and, on success, the descriptors as JSON. */
function bufBuild(dir: string): BufResult {
  const out = join(dir, "image.json");
  const result = runBuf(["build", dir, "--exclude-source-info", "-o", out]);
  if (!result.ok) return result;
  return { ...result, image: JSON.parse(readFileSync(out, "utf8")) as FileDescriptorSet };
}

const inModule = (path: string) => path.slice(`${PROTO_ROOT}/`.length);
/** A proto text alone at the API's path in a bare module. */
const protoModule = (content: string) => writeModule({ [inModule(PROTO_PATH)]: content });

describe("protoFile", () => {
  const files = protoFile();
  const dir = writeModule(Object.fromEntries(files.map((f) => [inModule(f.path), f.content])));
  const result = bufBuild(dir);

  it("should write the proto at the package's path in a buf module", () => {
    expect(files.map((f) => f.path)).toEqual(["docs/proto/buf.yaml", "docs/proto/svc/platform/v1/platform.proto"]);
  });

  it("should compile with buf with no error", () => {
    expect(result.output).toBe("");
    expect(result.ok).toBe(true);
  });

  it("should pass buf lint with the module's configuration (enum values prefixed, names cased)", () => {
    expect(runBuf(["lint", dir])).toEqual({ ok: true, output: "" });
  });

  it("should declare every service and every method of the descriptors with its request and response", () => {
    const proto = result.image!.file.find((f) => f.name.endsWith("platform.proto"))!;
    expect(proto.package).toBe("svc.platform.v1");
    for (const service of Object.values(services)) {
      const name = service.typeName.split(".").pop()!;
      const declared = proto.service?.find((s) => s.name === name);
      expect(declared, name).toBeDefined();
      const methods = Object.values(service.methods);
      expect(declared!.method?.map((m) => m.name) ?? []).toEqual(methods.map((m) => m.name));
      for (const method of methods) {
        const rpc = declared!.method!.find((m) => m.name === method.name)!;
        expect(rpc.inputType).toBe(`.svc.platform.v1.${method.input.meta()!.id}`);
        expect(rpc.outputType).toBe(`.svc.platform.v1.${method.output.meta()!.id}`);
      }
    }
    expect(proto.service?.flatMap((s) => s.method ?? []).length ?? 0).toBe(allMethods().length);
  });

  it("should declare each message once, with the API's camelCase names as proto3 JSON names, numbered from 1", () => {
    const proto = result.image!.file.find((f) => f.name.endsWith("platform.proto"))!;
    const table = shapeTable();
    expect(proto.messageType!.map((m) => m.name).sort()).toEqual(Object.keys(table).sort());
    for (const message of proto.messageType!) {
      const fields = message.field ?? [];
      expect(fields.map((f) => f.jsonName), message.name).toEqual(table[message.name]!.fields.map((f) => f.name));
      expect(fields.map((f) => f.number)).toEqual(fields.map((_, i) => i + 1));
    }
  });

  it("should give the AgeBand enum its proto value names, the unspecified value first at 0", () => {
    const proto = result.image!.file.find((f) => f.name.endsWith("platform.proto"))!;
    const ageBand = proto.enumType?.find((e) => e.name === "AgeBand");
    expect(ageBand?.value[0]).toEqual({ name: "AGE_BAND_UNSPECIFIED", number: 0 });
  });
});

describe("renderProto", () => {
  const Color = protoEnum("Color", ["COLOR_UNSPECIFIED", "COLOR_RED"] as const);
  const Inner = message("Inner", { n: int32(z.int32().min(0).max(9)) });
  const Outer = message("Outer", {
    userId: string(),
    count: int64(),
    color: Color,
    inner: Inner,
    tags: list(string()),
    inners: list(Inner),
    byName: map(int64()),
    byNumber: map(Inner, "int32"),
    maybe: z.boolean().optional(),
    grid: list(list(int32())),
    nested: map(map(string())),
  });
  const Empty = message("Empty", {});
  const Test = defineService({
    typeName: "svc.platform.v1.TestService",
    localName: "test",
    summary: "A service for the test.",
    methods: {
      echo: { input: Outer, output: Outer, auth: "none", summary: "Same message both ways." },
      ping: { input: Empty, output: Empty, auth: "game", scopes: ["studio"], summary: "Empty both ways." },
    },
  });
  const table: ShapeTable = {};
  addMessage(Outer, table);
  addMessage(Empty, table);
  const text = renderProto(table, [Test]);

  it("should map every field kind to its proto declaration", () => {
    expect(text).toContain([
      "message Outer {",
      "  string user_id = 1;",
      "  int64 count = 2;",
      "  Color color = 3;",
      "  Inner inner = 4;",
      "  repeated string tags = 5;",
      "  repeated Inner inners = 6;",
      "  map<string, int64> by_name = 7;",
      "  map<int32, Inner> by_number = 8;",
      "  optional bool maybe = 9;",
      "  repeated google.protobuf.ListValue grid = 10;",
      "  map<string, google.protobuf.Struct> nested = 11;",
      "}",
    ].join("\n"));
  });

  it("should write a field's rules as a trailing comment", () => {
    expect(text).toContain("message Inner {\n  int32 n = 1; // 0 to 9\n}");
    expect(text).toContain("  string user_id = 1;\n");
  });

  it("should write empty messages as `message X {}` and a message used both ways once", () => {
    expect(text).toContain("message Empty {}");
    expect(text.match(/message Outer \{/g)).toHaveLength(1);
    expect(text).toContain("rpc Echo(Outer) returns (Outer);");
    expect(text).toContain("rpc Ping(Empty) returns (Empty);");
  });

  it("should compile with buf, with the struct import that nested lists and maps need", () => {
    expect(text).toContain('import "google/protobuf/struct.proto";');
    const result = bufBuild(protoModule(text));
    expect(result.output).toBe("");
    const outer = result.image!.file.find((f) => f.name.endsWith("platform.proto"))!.messageType!.find((m) => m.name === "Outer")!;
    expect(outer.field!.find((f) => f.name === "maybe")!.proto3Optional).toBe(true);
  });

  it("should report buf errors, so a broken proto fails the test", () => {
    const result = bufBuild(protoModule(text.replace("message Inner {", "message Inner { Missing broken = 99;")));
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/Missing/);
  });
});

describe("protoType", () => {
  it("should name scalars by their own proto type", () => {
    for (const type of ["string", "bool", "int32", "int64", "double", "bytes"] as const) {
      expect(protoType({ kind: "scalar", type })).toBe(type);
    }
  });
});

describe("snakeCase field names", () => {
  // protoc derives a field's JSON name by dropping each `_` and upper-casing
  // the letter after it; our names must survive the round trip.
  const jsonName = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

  it("should give back the camelCase name as the proto3 JSON name", () => {
    fc.assert(fc.property(fc.stringMatching(/^[a-z][a-z0-9]{0,6}([A-Z][a-z0-9]{1,6}){0,4}$/), (name) => {
      expect(jsonName(snakeCase(name))).toBe(name);
    }));
  });
});

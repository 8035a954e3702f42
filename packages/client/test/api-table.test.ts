import { allMethods, messageName, shapeTable, snakeCase, writeMessage } from "@playfield/core";
import fc from "fast-check";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { messageArbitrary } from "../../core/test/support/wire-arbitrary.js";
import { readApiTable } from "../src/api-table.js";
import { BASE_URL, testClient, useMswServer } from "./helpers.js";

const server = useMswServer();
const core = shapeTable();
const table = readApiTable();

describe("readApiTable", () => {
  it("should list every method of the core's descriptors with its path, auth level and output", () => {
    const methods = Object.values(table.services).flatMap((byName) => Object.values(byName));
    expect(methods.map((m) => ({ path: m.path, auth: m.auth, output: m.output, localName: m.localName })))
      .toEqual(allMethods().map((m) => ({ path: m.path, auth: m.auth, output: messageName(m.output), localName: m.localName })));
  });

  it("should hold the core's wire shape of every message an answer can hold", () => {
    for (const method of allMethods()) expect(table.shapes[messageName(method.output)]).toBeDefined();
    for (const [name, shape] of Object.entries(table.shapes)) expect(shape).toEqual(core[name]);
  });

  it("should read a hand-written table by its grammar", () => {
    const small = readApiTable(
      { things: "x.v1.ThingService Get:optional:Thing" },
      { Thing: "id:l tags:*s by:.Who? scores:%d kind:=Kind note:s?", Who: "" },
      { Kind: "KIND_UNSPECIFIED KIND_BIG" },
    );
    expect(small.services).toEqual({
      things: { get: { service: "x.v1.ThingService", name: "Get", localName: "get", path: "/x.v1.ThingService/Get", auth: "optional", output: "Thing" } },
    });
    expect(small.shapes).toEqual({
      Thing: {
        name: "Thing",
        fields: [
          { name: "id", shape: { kind: "scalar", type: "int64" }, optional: false },
          { name: "tags", shape: { kind: "list", item: { kind: "scalar", type: "string" } }, optional: false },
          { name: "by", shape: { kind: "message", name: "Who" }, optional: true },
          { name: "scores", shape: { kind: "map", key: "int32", value: { kind: "scalar", type: "double" } }, optional: false },
          { name: "kind", shape: { kind: "enum", name: "Kind", values: ["KIND_UNSPECIFIED", "KIND_BIG"] }, optional: false },
          { name: "note", shape: { kind: "scalar", type: "string" }, optional: true },
        ],
      },
      Who: { name: "Who", fields: [] },
    });
  });
});

describe("client answers", () => {
  it("should give back any answer the server writes (defaults left out, int64 as strings, either name case)", async () => {
    const methods = allMethods();
    await fc.assert(fc.asyncProperty(
      fc.constantFrom(...methods).chain((method) => fc.tuple(fc.constant(method), messageArbitrary(core, core[messageName(method.output)]!), fc.boolean())),
      async ([method, value, snake]) => {
        const written = writeMessage(core, core[messageName(method.output)]!, value);
        const body = snake ? Object.fromEntries(Object.entries(written).map(([k, v]) => [snakeCase(k), v])) : written;
        server.use(http.post(`${BASE_URL}${method.path}`, () => HttpResponse.json(body)));
        // A new client each run: answers with tokens would otherwise change the next run's calls.
        const { client } = testClient();
        // A method the table lists is on the client; the type of this call is the whole API's union.
        const call = (client as unknown as Record<string, Record<string, (r: unknown, o: unknown) => Promise<unknown>>>);
        const service = Object.entries(table.services).find(([, byName]) => byName[method.localName]?.path === method.path)![0];
        const token = method.auth === "game" ? { token: "game-token" } : {};
        expect(await call[service]![method.localName]!({}, token)).toEqual(value);
      },
    ), { numRuns: 200 });
  });
});

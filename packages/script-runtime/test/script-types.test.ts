import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createReferenceWorld } from "../src/kinds/reference-world.js";
import type { ScriptApi } from "../src/types-gen/api-entries.js";
import { list, newRuntime } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "playfield-types-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const TSC = resolve(__dirname, "../../../node_modules/typescript/bin/tsc");

const PLAYER_CONFIG = {
  players: "everyone",
  kinds: { Part: { fields: { position: "read", color: "write" }, methods: ["distance_to"] } },
  roles: { builder: { kinds: { Part: { spawn: true, methods: ["apply_impulse"] }, Player: { fields: { score: "read" } } } } },
};

/** Type-checks JavaScript files against declarations with tsc; answers its output ("" when clean). */
function tscCheck(files: Record<string, string>): string {
  const paths = Object.entries(files).map(([name, text]) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  });
  try {
    const compilerOptions = { noEmit: true, allowJs: true, checkJs: true, strict: true, target: "es2022", module: "es2022", lib: ["es2022"], types: [] };
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: paths }));
    execFileSync(process.execPath, [TSC, "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout);
  }
}

const SCRIPT = `// @ts-check
/// <reference path="./playfield.d.ts" />
export default {
  async onLoad() {
    const part = game.spawn("Part", { position: { x: 0, y: 4, z: 0 }, color: { r: 1, g: 0, b: 0 } });
    part.applyImpulse({ x: 1, y: 0, z: 0 });
    await wait(1000);
    const w = game.find("World")[0];
    if (w) w.gravity = -5;
    console.log(JSON.stringify({ y: part.position.y, d: part.distanceTo({ x: 0, y: 0, z: 0 }) > 0, simMs: w?.simMs }));
  },
};
`;

describe("script.types", () => {
  it("should render ts declarations that tsc accepts, for a script that then runs", async () => {
    const runtime = newRuntime({ kinds: createReferenceWorld() });
    const { format, text } = (await runtime.run("script.types", { format: "ts" })) as { format: string; text: string };
    expect(format).toBe("ts");
    expect(tscCheck({ "playfield.d.ts": text, "game-script.js": SCRIPT })).toBe("");

    const lines: string[] = [];
    const world = createReferenceWorld();
    const running = newRuntime({ kinds: world, onConsole: (_s, _l, t) => lines.push(t) });
    await running.run("script.load", { name: "game-script", source: SCRIPT });
    await running.step(25);
    expect((await list(running)).scripts[0]?.faults).toBe(0);
    expect(JSON.parse(lines[0]!)).toEqual({ y: 0.5, d: true, simMs: 1000 });
  });

  it("should make tsc reject a write to a read-only field and a kind the view lacks", async () => {
    const runtime = newRuntime({ kinds: createReferenceWorld(), config: PLAYER_CONFIG });
    const { text } = (await runtime.run("script.types", { format: "ts", player: true })) as { text: string };
    const output = tscCheck({
      "player.d.ts": text,
      "player-script.js": `// @ts-check\n/// <reference path="./player.d.ts" />\nconst p = game.find("Part")[0];\nif (p) p.position = { x: 0, y: 0, z: 0 };\ngame.find("World");\n`,
    });
    expect(output).toContain("Cannot assign to 'position' because it is a read-only property");
    expect(output).toContain(`Argument of type '"World"' is not assignable`);
  });

  it("should render py stubs that python3 parses, for every view", async () => {
    const runtime = newRuntime({ kinds: createReferenceWorld(), config: PLAYER_CONFIG });
    for (const args of [{ format: "py" }, { format: "py", player: true }, { format: "py", player: true, roles: ["builder"] }]) {
      const { text } = (await runtime.run("script.types", args)) as { text: string };
      const file = join(dir, "playfield.pyi");
      writeFileSync(file, text);
      const parsed = execFileSync("python3", ["-c", "import ast, sys; tree = ast.parse(open(sys.argv[1]).read()); print(' '.join(n.name for n in tree.body if isinstance(n, ast.ClassDef)))", file], { encoding: "utf8" });
      const classes = parsed.trim().split(" ");
      expect(classes).toContain("Game");
      expect(classes).toContain("Vector3");
    }
  });

  it("should use camelCase in ts and snake_case in py", async () => {
    const runtime = newRuntime({ kinds: createReferenceWorld() });
    const ts = ((await runtime.run("script.types", { format: "ts" })) as { text: string }).text;
    const py = ((await runtime.run("script.types", { format: "py" })) as { text: string }).text;
    expect(ts).toContain("applyImpulse(impulse: Vector3): void;");
    expect(ts).toContain("readonly displayName: string;");
    expect(py).toContain("def apply_impulse(self, impulse: Vector3) -> None:");
    expect(py).toContain("def display_name(self) -> str:");
  });

  it("should render a Markdown reference", async () => {
    const runtime = newRuntime({ kinds: createReferenceWorld() });
    const { format, text } = (await runtime.run("script.types", { format: "md" })) as { format: string; text: string };
    expect(format).toBe("md");
    expect(text).toContain("## Part");
    expect(text).toContain("| `apply_impulse` | `applyImpulse` | `impulse: Vector3` | `void` / `None` | 10 |");
  });

  it("should answer json the same as script.api, and narrow it for players by role", async () => {
    const runtime = newRuntime({ kinds: createReferenceWorld(), config: PLAYER_CONFIG });
    expect(await runtime.run("script.types", { format: "json" })).toEqual(await runtime.run("script.api"));
    const player = (await runtime.run("script.types", { format: "json", player: true })) as ScriptApi;
    expect(player.kinds.map((k) => k.kind)).toEqual(["Part"]);
    expect(player.kinds[0]!.spawnable).toBe(false);
    expect(player.kinds[0]!.fields.map((f) => [f.name, f.read, f.write])).toEqual([["position", true, false], ["color", true, true]]);
    const builder = (await runtime.run("script.types", { format: "json", player: true, roles: ["builder"] })) as ScriptApi;
    expect(builder.kinds.map((k) => [k.kind, k.spawnable, k.methods.map((m) => m.name)])).toEqual([["Part", true, ["apply_impulse", "distance_to"]], ["Player", false, []]]);
  });

  it("should fail naming format when it is missing or unknown, and roles without player", async () => {
    const runtime = newRuntime();
    expect(await runtime.dispatch("script.types", {})).toEqual({ ok: false, error: { code: "invalid_argument", message: "script.types: format: required argument missing (one of ts, py, md, json)" } });
    expect(await runtime.dispatch("script.types", { format: "yaml" })).toEqual({ ok: false, error: { code: "invalid_argument", message: 'script.types: format: unknown format "yaml": one of ts, py, md, json' } });
    expect(await runtime.dispatch("script.types", { format: "ts", roles: ["x"] })).toEqual({ ok: false, error: { code: "invalid_argument", message: "script.types: roles: only with player true" } });
  });
});

describe("script.api", () => {
  it("should answer every field of the Script API kind entry, one entry per kind", async () => {
    const runtime = newRuntime({ kinds: createReferenceWorld() });
    const api = (await runtime.run("script.api")) as ScriptApi;
    expect(api.kinds.map((k) => k.kind)).toEqual(["World", "Part", "Player"]);
    const part = api.kinds[1]!;
    expect(Object.keys(part).sort()).toEqual(["doc", "fields", "kind", "methods", "spawnable"]);
    expect(part.fields.find((f) => f.name === "color")).toEqual({ name: "color", js: "color", type_ts: "Color3", type_py: "Color3", read: true, write: true, range: [0, 1], doc: "Its colour." });
    expect(part.methods[0]).toEqual({ name: "apply_impulse", js: "applyImpulse", args: [{ name: "impulse", type_ts: "Vector3", type_py: "Vector3" }], returns_ts: "void", returns_py: "None", rate_per_s: 10, doc: "Adds impulse / mass to its velocity." });
    expect(api.kinds[2]!.fields.find((f) => f.name === "display_name")).toMatchObject({ js: "displayName", type_ts: "string", type_py: "str", read: true, write: false, range: null });
  });

  it("should answer no kinds for a runtime whose game exposes none", async () => {
    expect(await newRuntime().run("script.api")).toEqual({ kinds: [], types: [] });
  });
});

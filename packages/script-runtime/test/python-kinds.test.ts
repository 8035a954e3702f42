import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { createGameKinds } from "../src/index.js";
import { createReferenceWorld } from "../src/kinds/reference-world.js";
import type { GameKinds } from "../src/kinds/game-kinds.js";
import { entry, newRuntime } from "./helpers.js";

/**
 * What the `.pyi` stubs declare, read by python3's own parser: the classes
 * (value types as TypedDicts, kinds, Game) with their annotated attributes,
 * properties and methods, and the module's annotated names (`game`).
 */
const READ_STUBS = String.raw`
import ast, json, sys
tree = ast.parse(sys.stdin.read())
out = {"classes": {}, "names": {}}
for node in tree.body:
    if isinstance(node, ast.AnnAssign):
        out["names"][node.target.id] = ast.unparse(node.annotation)
    if not isinstance(node, ast.ClassDef):
        continue
    c = {"typed_dict": any(ast.unparse(b) == "TypedDict" for b in node.bases), "attrs": {}, "props": {}, "methods": {}, "write_only": []}
    body = node.body
    for i, item in enumerate(body):
        if isinstance(item, ast.AnnAssign):
            c["attrs"][item.target.id] = ast.unparse(item.annotation)
            doc = body[i + 1] if i + 1 < len(body) else None
            if isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and "Write-only." in str(doc.value.value):
                c["write_only"].append(item.target.id)
        elif isinstance(item, ast.FunctionDef):
            decorators = [ast.unparse(d) for d in item.decorator_list]
            if "property" in decorators:
                c["props"][item.name] = ast.unparse(item.returns)
            elif "overload" not in decorators:
                c["methods"][item.name] = {"args": [ast.unparse(a.annotation) for a in item.args.args[1:]], "returns": ast.unparse(item.returns)}
    out["classes"][node.name] = c
print(json.dumps(out))
`;

/**
 * The check a Python script runs against what the stubs declare, given as
 * `STUBS` (the JSON above): every declared name is reachable, with the
 * declared type, and nothing public is there that the stubs do not declare.
 * It prints each problem, then "checked".
 */
const CHECK = String.raw`
import playfield
from playfield import game

problems = []
KINDS = {n: c for n, c in STUBS["classes"].items() if not c["typed_dict"] and n != "Game"}
TYPED = {n: c["attrs"] for n, c in STUBS["classes"].items() if c["typed_dict"]}

def fits(v, t):
    if t == "float":
        return type(v) is float
    if t == "int":
        return type(v) is int
    if t == "bool":
        return type(v) is bool
    if t == "str":
        return type(v) is str
    if t == "None":
        return v is None
    if t.startswith("Literal["):
        return repr(v) == t[8:-1]
    if t in TYPED:
        return isinstance(v, dict) and sorted(v) == sorted(TYPED[t]) and all(fits(v[k], TYPED[t][k]) for k in v)
    return False

def sample(t):
    return {"float": 1.0, "int": 1, "bool": False, "str": "hi"}.get(t) if t not in TYPED else {k: sample(u) for k, u in TYPED[t].items()}

def public(x):
    return sorted(n for n in dir(x) if not n.startswith("_"))

def same(where, seen, declared):
    if seen != sorted(declared):
        problems.append(where + ": script sees " + str(seen) + ", stubs declare " + str(sorted(declared)))

same("module playfield", public(playfield), list(STUBS["classes"]) + list(STUBS["names"]))
for n, t in STUBS["names"].items():
    if type(getattr(playfield, n, None)) is not getattr(playfield, t, None):
        problems.append("playfield." + n + " is not a " + t)
for n in TYPED:
    made = getattr(playfield, n)(**sample(n))
    if not fits(made, n):
        problems.append(n + "(...) is not a " + n)

g = STUBS["classes"]["Game"]
same("Game", public(type(game)), g["methods"])
for name, c in KINDS.items():
    cls = getattr(playfield, name)
    found = game.find(name)
    if type(found) is not list or not all(type(o) is cls for o in found):
        problems.append("game.find(" + repr(name) + ") is not a list[" + name + "]")
    if not found and "spawn" in g["methods"]:
        try:
            found = [game.spawn(name)]
        except Exception:
            pass
    if not found:
        problems.append("no " + name + " to look at")
        continue
    o = found[0]
    if game.get(o.id) is not o:
        problems.append("game.get(" + repr(o.id) + ") is not the same " + name)
    same(name, public(type(o)), list(c["attrs"]) + list(c["props"]) + list(c["methods"]))
    for a, t in list(c["attrs"].items()) + list(c["props"].items()):
        if a in c["write_only"]:
            try:
                getattr(o, a)
                problems.append(name + "." + a + " is declared write-only but reads")
            except AttributeError:
                pass
            continue
        v = getattr(o, a)
        if not fits(v, t):
            problems.append(name + "." + a + " = " + repr(v) + " is not a " + t)
        if a in c["props"]:
            try:
                setattr(o, a, v)
                problems.append(name + "." + a + " is declared read-only but takes a value")
            except TypeError:
                pass
        elif a not in ("id", "kind"):
            setattr(o, a, v)
    for m, d in c["methods"].items():
        r = getattr(o, m)(*[sample(t) for t in d["args"]])
        if not fits(r, d["returns"]):
            problems.append(name + "." + m + "(...) = " + repr(r) + " is not a " + d["returns"])
print(problems)
`;

interface Stubs {
  classes: Record<string, { typed_dict: boolean; attrs: Record<string, string>; props: Record<string, string>; methods: Record<string, { args: string[]; returns: string }>; write_only: string[] }>;
  names: Record<string, string>;
}

const readStubs = (text: string) => JSON.parse(execFileSync("python3", ["-c", READ_STUBS], { input: text, encoding: "utf8" })) as Stubs;

/** The Python check script for one view, with the stubs read above (a JSON text in a str literal: JSON's quoting is Python's). */
const checkScript = (stubs: Stubs) => `import json\nSTUBS = json.loads(${JSON.stringify(JSON.stringify(stubs))})\n${CHECK}`;

async function checkView(kinds: GameKinds, config: unknown, who: { player?: string; roles?: string[] }) {
  const lines: string[] = [];
  const runtime = newRuntime({ kinds, config, onConsole: (_s, _l, text) => lines.push(text) });
  const types = (await runtime.run("script.types", { format: "py", ...(who.player ? { player: true, roles: who.roles } : {}) })) as { text: string };
  const stubs = readStubs(types.text);
  const source = `def on_load(self, reloaded):\n    exec(${JSON.stringify(checkScript(stubs))}, {})\n`;
  await runtime.run("script.load", { name: "check", language: "py", source, ...(who.player ? { player: who.player, roles: who.roles } : {}) });
  await runtime.step(1);
  return { lines, stubs, runtime };
}

describe("Python scripts: the game's kinds are what the py stubs declare", () => {
  it("should let a script reach every declared name with its declared type, and nothing else, for every view", async () => {
    const config = {
      players: "everyone", forbid: [], player_fuel_per_tick: 5_000_000, load_fuel: 50_000_000,
      kinds: { Part: { fields: { position: "read", color: "write" }, methods: ["distance_to"] } },
      roles: { builder: { kinds: { Part: { spawn: true, methods: ["apply_impulse"] }, Player: { fields: { score: "read" } } } } },
    };
    for (const who of [{}, { player: "u1" }, { player: "u2", roles: ["builder"] }]) {
      const world = createReferenceWorld();
      world.world.spawn("Part"); // players who may not spawn one still see one
      const { lines, stubs, runtime } = await checkView(world, config, who);
      expect((await entry(runtime, "check")).last_fault, JSON.stringify(who)).toBeNull();
      expect(lines, JSON.stringify(who)).toEqual(["[]"]);
      expect(Object.keys(stubs.classes).length).toBeGreaterThan(1);
    }
  }, 60_000);
});

describe("Python scripts: the game's rules", () => {
  const DECLARATIONS = {
    kinds: [{
      kind: "Lamp", doc: "A lamp.", spawnable: false,
      fields: [
        { name: "brightness", js: "brightness", type: "number", write: true, range: [0, 1] as [number, number], doc: "0 to 1." },
        { name: "secret_code", js: "secretCode", type: "integer", read: false, write: true, doc: "Set only." },
      ],
      methods: [{ name: "flash_count", js: "flashCount", args: [{ name: "times", type: "integer" }], returns: "integer", rate_per_s: 1, doc: "Flashes." }],
    }],
  };
  const lampKinds = () => createGameKinds({
    declarations: DECLARATIONS,
    methods: { Lamp: { flash_count: (_lamp, [times]) => (times as number) * 2 } },
    setup: (world) => { world.spawn("Lamp") },
  });

  it("should check the stubs against a kind with a write-only field and an integer method", async () => {
    const { lines, runtime } = await checkView(lampKinds(), { load_fuel: 50_000_000 }, {});
    expect((await runtime.run("script.list") as { log: string[] }).log).toEqual(["[tick 1] loaded check"]);
    expect((await entry(runtime, "check")).last_fault).toBeNull();
    expect(lines).toEqual(["[]"]);
  });

  it("should raise TypeError, ValueError and LookupError where JavaScript throws TypeError, RangeError and ReferenceError, naming snake_case", async () => {
    const lines: string[] = [];
    const runtime = newRuntime({ kinds: lampKinds(), onConsole: (_s, _l, text) => lines.push(text) });
    const source = [
      "from playfield import game",
      "def on_tick(self, dt):",
      "    lamp = game.find('Lamp')[0]",
      "    for f in (lambda: lamp.secret_code, lambda: setattr(lamp, 'brightness', 2), lambda: lamp.flash_count(1), lambda: game.find('Sun'), lambda: game.get('nope'), lambda: lamp.flash_count('x'), lambda: lamp.flash_count(2)):",
      "        try:",
      "            print(f())",
      "        except Exception as e:",
      "            print(type(e).__name__ + ': ' + str(e))",
      "    lamp.brightness = 0.25",
      "    self.state['b'] = lamp.brightness",
    ].join("\n");
    await runtime.run("script.load", { name: "lamp", language: "py", source });
    await runtime.step(1);
    expect(lines).toEqual([
      "AttributeError: Lamp.secret_code is write-only",
      "ValueError: Lamp.brightness: 2 is outside its range [0, 1]",
      "2",
      "LookupError: no kind Sun in this script's API",
      "None",
      'TypeError: Lamp.flash_count: times: expected a finite number, got "x"',
      "ValueError: Lamp.flash_count: rate limit of 1 call per second reached",
    ]);
    expect(await entry(runtime, "lamp")).toMatchObject({ faults: 0 });
  });

  it("should have no playfield module when the game exposes no kinds", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "p", language: "py", source: "from playfield import game\n" });
    await runtime.step(1);
    expect((await import("./helpers.js")).list).toBeDefined();
    const log = ((await runtime.run("script.list")) as { log: string[] }).log;
    expect(log[0]).toMatch(/^\[tick 1\] p did not load: module: ImportError: module not found: playfield /);
  });
});

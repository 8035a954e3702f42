import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import { createReferenceWorld } from "../src/kinds/reference-world.js";
import { entry, list, newRuntime } from "./helpers.js";

/** A Python script that counts its ticks in `self.state["n"]`. */
const PY_COUNTER = "def init():\n    return {\"n\": 0}\n\ndef on_tick(self, dt):\n    self.state[\"n\"] += 1\n";

const indent = (body: string) => body.split("\n").map((l) => `    ${l}`).join("\n");

/** Hostile Python handlers: each must fault only its own script with a clear reason. */
const HOSTILE: Record<string, { body: string; fault: RegExp }> = {
  loop: { body: "while True:\n    pass", fault: /^on_tick: out of fuel \(fuel_per_tick 200000\)$/ },
  loopInTry: { body: "try:\n    while True:\n        pass\nexcept:\n    self.state['caught'] = True\nfinally:\n    self.state['fin'] = True", fault: /^on_tick: out of fuel \(fuel_per_tick 200000\)$/ },
  loopInTryBase: { body: "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        self.state['caught'] = True", fault: /^on_tick: out of fuel/ },
  recursion: { body: "def f(n):\n    return f(n + 1) + 1\nf(0)", fault: /^on_tick: (RuntimeError: maximum recursion depth exceeded|out of fuel)/ },
  recursionCaught: { body: "def f(n):\n    try:\n        return f(n + 1) + 1\n    except RuntimeError:\n        return f(n + 1)\nf(0)", fault: /^on_tick: (out of fuel|RuntimeError: maximum recursion depth exceeded)/ },
  listBomb: { body: "a = []\nwhile True:\n    a.append([7] * 10000)", fault: /^on_tick: out of (memory \(memory limit 8388608 bytes\)|fuel)/ },
  hugeAlloc: { body: "x = [0] * (10 ** 9)", fault: /^on_tick: (out of memory \(memory limit 8388608 bytes\)|MemoryError)/ },
  hugeString: { body: "x = 'a' * (10 ** 9)", fault: /^on_tick: (out of memory|MemoryError)/ },
  comprehensionBomb: { body: "x = [[i] * 1000 for i in range(10 ** 6)]", fault: /^on_tick: out of (memory|fuel)/ },
  dictBomb: { body: "d = {}\ni = 0\nwhile True:\n    d['k' + str(i)] = i\n    i += 1", fault: /^on_tick: out of (memory|fuel)/ },
  hugeCount: { body: "s = 'ab' * 100000\nwhile True:\n    s.count('b')", fault: /^on_tick: out of fuel/ },
  hugeSort: { body: "big = list(range(300000, 0, -1))\nwhile True:\n    sorted(big)", fault: /^on_tick: out of (fuel|memory)/ },
  importJs: { body: "import js\njs.globalThis", fault: /^on_tick: ImportError: module not found: js/ },
  importJsffi: { body: "import jsffi", fault: /^on_tick: ImportError: module not found: jsffi/ },
  importOs: { body: "import os", fault: /^on_tick: ImportError: module not found: os/ },
  importSys: { body: "import sys", fault: /^on_tick: ImportError: module not found: sys/ },
  importMicropython: { body: "import micropython", fault: /^on_tick: ImportError: module not found: micropython/ },
  importGc: { body: "import gc\ngc.collect()", fault: /^on_tick: ImportError: module not found: gc/ },
  dunderImport: { body: "__import__('js')", fault: /^on_tick: ImportError: module not found: js/ },
  // Routes around the import allow-list: every object a script can touch leads back only to what it may have.
  globalsOfImport: { body: "imp = __import__.__globals__['_import']\nimp('js').globalThis", fault: /^on_tick: KeyError: _import \(hostile-globalsOfImport\.py, line 5\)$/ },
  globalsOfTimer: { body: "set_timeout.__globals__['_timers']", fault: /^on_tick: KeyError: _timers \(hostile-globalsOfTimer\.py, line 5\)$/ },
  globalsOfClearInterval: { body: "clear_interval.__globals__['builtins']", fault: /^on_tick: KeyError: builtins \(hostile-globalsOfClearInterval\.py, line 5\)$/ },
  globalsOfWait: { body: "type(wait(0)).__await__.__globals__['sys']", fault: /^on_tick: KeyError: sys \(hostile-globalsOfWait\.py, line 5\)$/ },
  globalsOfSelf: { body: "type(self).__init__.__globals__['uctypes']", fault: /^on_tick: KeyError: uctypes \(hostile-globalsOfSelf\.py, line 5\)$/ },
  globalsOfOwn: { body: "on_tick.__globals__['__builtins__']", fault: /^on_tick: KeyError: __builtins__ \(hostile-globalsOfOwn\.py, line 5\)$/ },
  closureCells: { body: "__import__.__closure__", fault: /^on_tick: AttributeError: 'closure' object has no attribute '__closure__' \(hostile-closureCells\.py, line 5\)$/ },
  codeRun: { body: "exec(__import__.__code__, {})", fault: /^on_tick: TypeError: __import__\(\) takes 2 positional arguments but 0 were given \(hostile-codeRun\.py, line 5\)$/ },
  subclasses: { body: "object.__subclasses__()", fault: /^on_tick: AttributeError: type object 'object' has no attribute '__subclasses__' \(hostile-subclasses\.py, line 5\)$/ },
  importBuiltins: { body: "import builtins", fault: /^on_tick: ImportError: module not found: builtins \(scripts import from the project's scripts folder and abc, .*, types\) \(hostile-importBuiltins\.py, line 5\)$/ },
  importMain: { body: "import __main__", fault: /^on_tick: ImportError: module not found: __main__ \(scripts import from the project's scripts folder and abc, .*, types\) \(hostile-importMain\.py, line 5\)$/ },
  importHost: { body: "import _playfield_host", fault: /^on_tick: ImportError: module not found: _playfield_host \(scripts import from the project's scripts folder and abc, .*, types\) \(hostile-importHost\.py, line 5\)$/ },
  importUctypes: { body: "import uctypes", fault: /^on_tick: ImportError: module not found: uctypes \(scripts import from the project's scripts folder and abc, .*, types\) \(hostile-importUctypes\.py, line 5\)$/ },
  importIo: { body: "import io", fault: /^on_tick: ImportError: module not found: io \(scripts import from the project's scripts folder and abc, .*, types\) \(hostile-importIo\.py, line 5\)$/ },
  importReplaced: { body: "globals()['__import__'] = lambda *a: None\nimport sys", fault: /^on_tick: ImportError: module not found: sys \(scripts import from the project's scripts folder and abc, .*, types\) \(hostile-importReplaced\.py, line 6\)$/ },
  execImport: { body: "exec('import sys')", fault: /^on_tick: ImportError: module not found: sys \(scripts import from the project's scripts folder and abc, .*, types\) \(hostile-execImport\.py, line 5\)$/ },
  evalImport: { body: "eval(\"__import__('io')\")", fault: /^on_tick: ImportError: module not found: io \(scripts import from the project's scripts folder and abc, .*, types\) \(hostile-evalImport\.py, line 5\)$/ },
  compileImport: { body: "exec(compile('import gc', 'x.py', 'exec'))", fault: /^on_tick: ImportError: module not found: gc \(scripts import .*\) \(x\.py, line 1\)$/ },
  lyingName: { body: "class S(str):\n    def split(self, sep):\n        return ['math']\n__import__(S('sys'))", fault: /^on_tick: TypeError: __import__ takes a str name and an int level \(hostile-lyingName\.py, line 8\)$/ },
  lyingLevel: { body: "class I(int):\n    def __eq__(self, other):\n        return True\n__import__('sys', None, None, None, I(1))", fault: /^on_tick: TypeError: __import__ takes a str name and an int level \(hostile-lyingLevel\.py, line 8\)$/ },
  lyingFromlist: { body: "__import__('math', None, None, ['sqrt', 1])", fault: /^on_tick: TypeError: __import__ takes names of str \(hostile-lyingFromlist\.py, line 5\)$/ },
  stdin: { body: "input()", fault: /^on_tick: out of fuel \(fuel_per_tick 200000\)$/ },
  openFile: { body: "open('/etc/passwd').read()", fault: /^on_tick: OSError: / },
  raiseValue: { body: "raise ValueError('no')", fault: /^on_tick: ValueError: no \(hostile-raiseValue\.py, line \d+\)$/ },
  systemExit: { body: "raise SystemExit(1)", fault: /^on_tick: SystemExit: 1/ },
  functionState: { body: "self.state['f'] = lambda: 1", fault: /^on_tick: self\.state is not JSON data: self\.state\['f'\] is a function$/ },
  tupleState: { body: "self.state['t'] = (1, 2)", fault: /^on_tick: self\.state is not JSON data: self\.state\['t'\] is a tuple$/ },
  nanState: { body: "self.state['x'] = float('nan')", fault: /^on_tick: self\.state is not JSON data: self\.state\['x'\] is nan$/ },
  intKeyState: { body: "self.state['d'] = {1: 2}", fault: /^on_tick: self\.state is not JSON data: self\.state\['d'\] has a key that is not a str: 1$/ },
  bigIntState: { body: "self.state['b'] = 2 ** 64", fault: /^on_tick: self\.state is not JSON data: self\.state\['b'\] is an integer beyond 2\*\*53$/ },
  cyclicList: { body: "a = []\na.append(a)\nself.state['a'] = a", fault: /^on_tick: self\.state is not JSON data: self\.state\['a'\]\[0\] is a cycle$/ },
  cyclicDict: { body: "d = {}\nd['me'] = d\nself.state['d'] = d", fault: /^on_tick: self\.state is not JSON data: self\.state\['d'\]\['me'\] is a cycle$/ },
  cyclicDeep: { body: "a = {'x': [1, {}]}\na['x'][1]['back'] = a\nself.state['a'] = a", fault: /^on_tick: self\.state is not JSON data: self\.state\['a'\]\['x'\]\[1\]\['back'\] is a cycle$/ },
  cyclicRoot: { body: "self.state['me'] = self.state", fault: /^on_tick: self\.state is not JSON data: self\.state\['me'\] is a cycle$/ },
  setState: { body: "self.state['s'] = {1, 2}", fault: /^on_tick: self\.state is not JSON data: self\.state\['s'\] is a set$/ },
  bytesState: { body: "self.state['b'] = b'ab'", fault: /^on_tick: self\.state is not JSON data: self\.state\['b'\] is a bytes$/ },
  bytearrayState: { body: "self.state['b'] = [bytearray(b'ab')]", fault: /^on_tick: self\.state is not JSON data: self\.state\['b'\]\[0\] is a bytearray$/ },
  objectState: { body: "class P:\n    pass\nself.state['o'] = P()", fault: /^on_tick: self\.state is not JSON data: self\.state\['o'\] is a P$/ },
  reprState: { body: "class P:\n    def __repr__(self):\n        return '1'\nself.state['o'] = {'p': P()}", fault: /^on_tick: self\.state is not JSON data: self\.state\['o'\]\['p'\] is a P$/ },
  infState: { body: "self.state['x'] = [float('inf')]", fault: /^on_tick: self\.state is not JSON data: self\.state\['x'\]\[0\] is inf$/ },
  minusInfState: { body: "self.state['x'] = -float('inf')", fault: /^on_tick: self\.state is not JSON data: self\.state\['x'\] is -inf$/ },
  deepState: { body: "x = []\nfor i in range(100):\n    x = [x]\nself.state['x'] = x", fault: /^on_tick: self\.state is not JSON data: self\.state\['x'\](\[0\]){63} is nested deeper than 64 levels$/ },
  hugeState: { body: "self.state['s'] = 'z' * 2000000", fault: /^on_tick: (self\.state is larger than max_state_bytes \(1048576\)|out of fuel)/ },
};

/**
 * Walks every object reachable from what a Python script can touch (the
 * builtins the prelude adds, self, its own functions and globals, the
 * allowed modules, project modules, the game's API) through every
 * attribute that leads to other objects (a function's __globals__, a
 * class's or module's __dict__, ...), and prints what it found: dict keys
 * that are the prelude's own names, and every module.
 */
const WALK = String.raw`import json, math, cmath, random, re, collections, heapq, functools, itertools, string, struct, array, copy, operator, time, datetime, binascii, base64, hashlib, abc, types
import playfield
from playfield import game
import lib.helpers

INTERNAL = ("_import", "_hook", "_timers", "_sources", "_self", "_settle", "_playfield_host", "uctypes", "builtins", "sys", "io")
PLAIN = (str, int, float, bool, type(None), bytes)

def on_load(self, reloaded):
    roots = [("__import__", __import__), ("set_timeout", set_timeout), ("set_interval", set_interval), ("clear_timeout", clear_timeout),
        ("clear_interval", clear_interval), ("wait", wait), ("wait(0)", wait(0)), ("self", self), ("on_load", on_load), ("globals()", globals()),
        ("print", print), ("exec", exec), ("object", object), ("type", type), ("lib", lib), ("playfield", playfield), ("game", game)]
    seen = {}
    modules = []
    foreign = []
    todo = [(r, p) for p, r in roots]
    while todo:
        o, path = todo.pop()
        if id(o) in seen or type(o) in PLAIN:
            continue
        seen[id(o)] = o
        t = type(o)
        if t is type(math):
            modules.append(o.__name__)
        if t is dict:
            for k in o:
                if k in INTERNAL:
                    foreign.append(path + "[" + repr(k) + "]")
                todo.append((o[k], path + "[" + repr(k) + "]"))
            continue
        if t in (list, tuple, set, frozenset):
            for i, v in enumerate(o):
                todo.append((v, path + "[" + str(i) + "]"))
            continue
        # dir() of an object costs a lookup of every name the interpreter knows: the attributes that lead anywhere are these.
        for a in ("__globals__", "__dict__", "__bases__", "__class__", "__self__", "__func__", "fget", "fset"):
            try:
                v = getattr(o, a)
            except Exception:
                continue
            todo.append((v, path + "." + a))
    print(json.dumps({"objects": len(seen) > 300, "foreign": foreign, "modules": sorted(modules)}))
`;

const hostile = (body: string) => `def init():\n    return {"kept": 1}\n\ndef on_tick(self, dt):\n${indent(body)}\n`;

describe("Python scripts: hostile handlers", () => {
  it("should fault only the hostile script, with a clear last_fault, keep its state and keep ticking", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "good", source: PY_COUNTER, language: "py" });
    for (const [name, { body }] of Object.entries(HOSTILE)) {
      await runtime.run("script.load", { name: `hostile-${name}`, source: hostile(body), language: "py" });
    }
    await runtime.step(2);
    const listed = await list(runtime);
    expect(listed.log.filter((l) => l.includes("did not load"))).toEqual([]);
    expect(await entry(runtime, "good")).toMatchObject({ faults: 0, state_hash: stateHash('{"n":2}') });
    for (const [name, { fault }] of Object.entries(HOSTILE)) {
      const script = listed.scripts.find((s) => s.name === `hostile-${name}`);
      expect(script?.last_fault, name).toMatch(fault);
      expect(script?.faults, name).toBe(2);
      expect(script?.state_hash, `${name} keeps the state it had before the call`).toBe(stateHash('{"kept":1}'));
      expect(script?.fuel_used, name).toBeLessThanOrEqual(200_000);
    }
  }, 60_000);

  it("should keep the prelude out of reach: a walk from everything a script can touch finds no internal name and only the allowed modules", async () => {
    const lines: string[] = [];
    const runtime = newRuntime({
      kinds: createReferenceWorld(), config: { load_fuel: 50_000_000 }, onConsole: (_s, _l, text) => lines.push(text),
      modules: { "lib/helpers.py": "def double(x):\n    return 2 * x\n" },
    });
    await runtime.run("script.load", { name: "walk", language: "py", source: WALK });
    await runtime.step(1);
    expect(await entry(runtime, "walk")).toMatchObject({ faults: 0, last_fault: null });
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ objects: true, foreign: [], modules: [
      "abc", "array", "base64", "binascii", "cmath", "collections", "copy", "datetime", "functools", "hashlib", "heapq",
      "itertools", "json", "math", "operator", "random", "re", "string", "struct", "time", "types",
    ] }]);
  }, 60_000);

  it("should stop an endless loop at the same fuel on every run, and never run its except or finally", async () => {
    const lines: string[] = [];
    const runs = [];
    for (let run = 0; run < 2; run++) {
      const runtime = newRuntime({ onConsole: (_s, _l, text) => lines.push(text) });
      await runtime.run("script.load", { name: "spin", language: "py", source: "def on_tick(self, dt):\n    n = 0\n    try:\n        while True:\n            n += 1\n    except:\n        print('caught')\n    finally:\n        print('finally')\n" });
      await runtime.run("script.load", { name: "count", language: "py", source: PY_COUNTER });
      await runtime.step(3);
      runs.push(await list(runtime));
    }
    expect(lines).toEqual([]);
    expect(runs[0]!.chain).toBe(runs[1]!.chain);
    expect(runs[0]!.scripts).toEqual(runs[1]!.scripts);
    expect(runs[0]!.scripts[0]).toMatchObject({ faults: 3, fuel_used: 200_000, last_fault: "on_tick: out of fuel (fuel_per_tick 200000)" });
    expect(runs[0]!.scripts[1]).toMatchObject({ faults: 0, state_hash: stateHash('{"n":3}') });
  }, 30_000);

  it("should stop a player's Python script at the players' fuel budget", async () => {
    const runtime = newRuntime({ config: { players: "everyone", forbid: [] } });
    await runtime.run("script.load", { name: "p", language: "py", source: "def on_tick(self, dt):\n    while True:\n        pass\n", player: "u" });
    await runtime.step(1);
    expect(await entry(runtime, "p")).toMatchObject({ fuel_used: 50_000, last_fault: "on_tick: out of fuel (fuel_per_tick 50000)" });
  });

  it("should name the path of a cycle within a player's fuel, and keep data 64 levels deep", async () => {
    const runtime = newRuntime({ config: { players: "everyone", forbid: [] } });
    await runtime.run("script.load", { name: "p", language: "py", player: "u", source: hostile("a = {'x': [1, {}]}\na['x'][1]['back'] = a\nself.state['a'] = a") });
    // 64 levels: the state itself and 63 containers inside it.
    await runtime.run("script.load", { name: "deep", language: "py", source: hostile("x = 1\nfor i in range(31):\n    x = {'k': [x]}\nself.state = {'k': x}") });
    await runtime.step(1);
    expect(await entry(runtime, "p")).toMatchObject({ faults: 1, last_fault: "on_tick: self.state is not JSON data: self.state['a']['x'][1]['back'] is a cycle" });
    expect((await entry(runtime, "p")).fuel_used).toBeLessThan(50_000);
    let json = "1";
    for (let i = 0; i < 31; i++) json = `{"k":[${json}]}`;
    expect(await entry(runtime, "deep")).toMatchObject({ faults: 0, state_hash: stateHash(`{"k":${json}}`) });
  });

  it("should keep a dict or str subclass as the plain data it holds, as a JavaScript class instance is kept as a plain object", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "sub", language: "py", source: hostile("class D(dict):\n    pass\nclass S(str):\n    pass\nself.state = D(s=S('x'))") });
    await runtime.step(1);
    expect(await entry(runtime, "sub")).toMatchObject({ faults: 0, state_hash: stateHash('{"s":"x"}') });
  });

  it("should report a fault in a load as a did-not-load line naming file and line", async () => {
    const runtime = newRuntime();
    await runtime.run("script.load", { name: "l", language: "py", source: "while True:\n    pass\n" });
    await runtime.run("script.load", { name: "m", language: "py", source: "from lib.missing import x\n" });
    await runtime.run("script.load", { name: "i", language: "py", source: "def init():\n    raise TypeError('no')\n" });
    await runtime.run("script.load", { name: "s", language: "py", source: "x = 1\ndef f(:\n    pass\n" });
    await runtime.step(1);
    expect((await list(runtime)).log).toEqual([
      "[tick 1] l did not load: module: out of fuel (load_fuel 2000000)",
      expect.stringMatching(/^\[tick 1\] m did not load: module: ImportError: module not found: lib\.missing .*\(m\.py, line 1\)$/),
      "[tick 1] i did not load: init: TypeError: no (i.py, line 2)",
      "[tick 1] s did not load: module: SyntaxError: invalid syntax (s.py, line 2)",
    ]);
  });
});

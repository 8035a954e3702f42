import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stateHash } from "../src/index.js";
import type { ScriptList } from "../src/index.js";
import { editorFor, projectWith, until, writeProjectFile } from "./project-fixture.js";

const COUNTER = "export default { init() { return { n: 0 } }, onTick() { this.state.n += 1 } }";
const list = async (editor: ReturnType<typeof editorFor>) => (await editor.runtime.run("script.list")) as ScriptList;
const error = async (promise: Promise<unknown>) => {
  try { await promise; } catch (e) { return (e as { toJSON(): unknown }).toJSON(); }
  throw new Error("expected an error");
};

describe("editor.scripts.panel", () => {
  it("should show the panel by default and hide it with open false", async () => {
    const editor = editorFor(projectWith({}));
    expect(await editor.runtime.run("editor.scripts.panel", { open: false })).toEqual({ open: false });
    expect(await editor.runtime.run("editor.scripts.panel", {})).toEqual({ open: true });
    expect(editor.panel.open).toBe(true);
  });
});

describe("editor.scripts.files", () => {
  it("should list every .js and .py file of scripts/ with whether it runs", async () => {
    const project = projectWith({
      "scripts/door.js": COUNTER,
      "scripts/lamp.js": COUNTER,
      "scripts/ai.py": "def on_tick(self, dt):\n    pass\n",
      "scripts/modules/math.js": "export const clamp = (x, a, b) => Math.min(b, Math.max(a, x));",
      "scripts/notes.txt": "not a script",
      "readme.js": "outside the scripts folder",
    });
    const editor = editorFor(project);
    await editor.runtime.run("editor.scripts.load", { name: "door" });
    await editor.runtime.run("editor.scripts.load", { name: "lamp" });
    await editor.runtime.run("script.pause", { name: "lamp" });
    await editor.runtime.step(1);
    expect(await editor.runtime.run("editor.scripts.files")).toEqual([
      { name: "ai", path: "scripts/ai.py", running: false },
      { name: "door", path: "scripts/door.js", running: true },
      { name: "lamp", path: "scripts/lamp.js", running: false },
      { name: "modules/math", path: "scripts/modules/math.js", running: false },
    ]);
  });
});

describe("editor.scripts.edit", () => {
  it("should open a file in the code editor and answer its path", async () => {
    const editor = editorFor(projectWith({ "scripts/door.js": COUNTER }));
    expect(await editor.runtime.run("editor.scripts.edit", { name: "door" })).toEqual({ opened: "scripts/door.js" });
    expect(await editor.runtime.run("editor.scripts.state")).toEqual({ open: true, live_reload: true, editing: "scripts/door.js" });
  });

  it("should fail with not_found on an unknown name, and name a missing one", async () => {
    const editor = editorFor(projectWith({}));
    expect(await error(editor.runtime.run("editor.scripts.edit", { name: "ghost" }))).toEqual({ code: "not_found", message: "no script file named ghost in scripts/" });
    expect(await error(editor.runtime.run("editor.scripts.edit", {}))).toEqual({ code: "invalid_argument", message: "editor.scripts.edit: name: required argument missing" });
  });
});

describe("editor.scripts.live_reload", () => {
  it("should be on by default, require on, and answer its state", async () => {
    const editor = editorFor(projectWith({}));
    expect(editor.panel.live_reload).toBe(true);
    expect(await editor.runtime.run("editor.scripts.live_reload", { on: false })).toEqual({ live_reload: false });
    expect(await error(editor.runtime.run("editor.scripts.live_reload", {}))).toEqual({ code: "invalid_argument", message: "editor.scripts.live_reload: on: required argument missing" });
  });
});

describe("live reload", () => {
  it("should reload a running script when its file is written, keeping its state", async () => {
    const project = projectWith({ "scripts/door.js": COUNTER });
    const editor = editorFor(project, { watch: true, debounceMs: 30 });
    await editor.runtime.run("editor.scripts.load", { name: "door" });
    await editor.runtime.step(3);
    const before = (await list(editor)).scripts[0]!.state_hash;
    writeProjectFile(project, "scripts/door.js", "export default { init() { return { n: 0 } }, onTick() { this.state.n += 10 } }");
    await until(async () => { await editor.runtime.step(1); return (await list(editor)).log.some((l) => l.includes("reloaded door")); });
    const after = await list(editor);
    expect(after.log.filter((l) => l.includes("door"))).toEqual(["[tick 1] loaded door", expect.stringMatching(/^\[tick \d+\] reloaded door \(state kept\)$/)]);
    expect(after.scripts[0]!.state_hash).not.toBe(before);
  });

  it("should debounce a burst of writes into one reload", async () => {
    const project = projectWith({ "scripts/door.js": COUNTER });
    const editor = editorFor(project, { watch: true, debounceMs: 150 });
    await editor.runtime.run("editor.scripts.load", { name: "door" });
    await editor.runtime.step(1);
    for (let i = 0; i < 5; i++) writeProjectFile(project, "scripts/door.js", `${COUNTER}\n// edit ${i}`);
    await until(async () => { await editor.runtime.step(1); return (await list(editor)).log.some((l) => l.includes("reloaded door")); });
    await new Promise((r) => setTimeout(r, 400));
    await editor.runtime.step(1);
    expect((await list(editor)).log.filter((l) => l.includes("reloaded door"))).toHaveLength(1);
  });

  it("should keep the running version and log a did-not-load line when the file does not compile", async () => {
    const project = projectWith({ "scripts/door.js": COUNTER });
    const editor = editorFor(project, { watch: true, debounceMs: 30 });
    await editor.runtime.run("editor.scripts.load", { name: "door" });
    await editor.runtime.step(2);
    writeProjectFile(project, "scripts/door.js", "export default { onTick() { this.state.n += }");
    await until(async () => { await editor.runtime.step(1); return (await list(editor)).log.some((l) => l.includes("door did not load")); });
    const hashes = [];
    for (let i = 0; i < 2; i++) {
      await editor.runtime.step(1);
      hashes.push((await list(editor)).scripts[0]!.state_hash);
    }
    expect(hashes[0]).not.toBe(hashes[1]); // the old version still counts
    expect((await list(editor)).log.some((l) => /door did not load: .*SyntaxError/.test(l))).toBe(true);
  });

  it("should give scripts loaded after a module changed the new module", async () => {
    const project = projectWith({
      "scripts/modules/rules.js": "export const step = 1;",
      "scripts/a.js": "import { step } from 'modules/rules'; export default { init() { return { step } } }",
      "scripts/b.js": "import { step } from 'modules/rules'; export default { init() { return { step } } }",
    });
    const editor = editorFor(project, { watch: true, debounceMs: 30 });
    const states: string[] = [];
    const seen = editorFor(projectWith({ "scripts/x.js": "export default { init() { return { step: 1 } } }", "scripts/y.js": "export default { init() { return { step: 2 } } }" }));
    await seen.runtime.run("editor.scripts.load", { name: "x" });
    await seen.runtime.run("editor.scripts.load", { name: "y" });
    await seen.runtime.step(1);
    for (const s of (await list(seen)).scripts) states.push(s.state_hash);
    await editor.runtime.run("editor.scripts.load", { name: "a" });
    await editor.runtime.step(1);
    writeProjectFile(project, "scripts/modules/rules.js", "export const step = 2;");
    await new Promise((r) => setTimeout(r, 150));
    await editor.runtime.run("editor.scripts.load", { name: "b" });
    await editor.runtime.step(1);
    const scripts = (await list(editor)).scripts;
    expect(scripts.map((s) => s.state_hash)).toEqual(states); // a still has step 1, b has step 2
  });

  it("should not reload when live reload is off", async () => {
    const project = projectWith({ "scripts/door.js": COUNTER });
    const editor = editorFor(project, { watch: true, debounceMs: 30 });
    await editor.runtime.run("editor.scripts.live_reload", { on: false });
    await editor.runtime.run("editor.scripts.load", { name: "door" });
    await editor.runtime.step(1);
    writeProjectFile(project, "scripts/door.js", `${COUNTER}\n// edited`);
    await new Promise((r) => setTimeout(r, 300));
    await editor.runtime.step(1);
    expect((await list(editor)).log.some((l) => l.includes("reloaded"))).toBe(false);
  });
});

describe("editor.scripts.load", () => {
  it("should load a .py file as Python, with its project modules, and live-reload it when the file is written", async () => {
    const project = projectWith({
      "scripts/ai.py": "from lib.steps import step\n\ndef on_tick(self, dt):\n    self.state['n'] = step(self.state.get('n', 0))\n",
      "scripts/lib/steps.py": "def step(n):\n    return n + 1\n",
    });
    const editor = editorFor(project, { watch: true, debounceMs: 30 });
    expect(await editor.runtime.run("editor.scripts.load", { name: "ai" })).toEqual({ queued: "ai", applies: "next fixed tick" });
    await editor.runtime.step(2);
    expect((await list(editor)).scripts[0]).toMatchObject({ name: "ai", faults: 0, state_hash: stateHash('{"n":2}') });
    writeProjectFile(project, "scripts/ai.py", "from lib.steps import step\n\ndef on_tick(self, dt):\n    self.state['n'] = -step(self.state['n'])\n");
    await until(async () => { await editor.runtime.step(1); return (await list(editor)).log.some((l) => l.includes("reloaded ai")); });
    const listed = await list(editor);
    expect(listed.log).toEqual(["[tick 1] loaded ai", expect.stringMatching(/^\[tick \d+\] reloaded ai \(state kept\)$/)]);
    expect(listed.scripts[0]).toMatchObject({ name: "ai", faults: 0 });
  });
});

describe("scripts.config.json", () => {
  it("should configure budgets and the players setting from the scripts folder", async () => {
    const editor = editorFor(projectWith({ "scripts/scripts.config.json": JSON.stringify({ fuel_per_tick: 12345, players: "everyone" }), "scripts/door.js": COUNTER }));
    expect(editor.runtime.config.fuel_per_tick).toBe(12345);
    expect(editor.runtime.config.players).toBe("everyone");
  });

  it("should log a malformed file as a manifest problem and use the defaults", async () => {
    const editor = editorFor(projectWith({ "scripts/scripts.config.json": "{ players: everyone" }));
    const log = (await list(editor)).log;
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^\[tick 0\] manifest problem: scripts\/scripts\.config\.json: not valid JSON \(.+\); using the defaults$/);
    expect(editor.runtime.config.players).toBe("owner");
  });
});

describe("editor.scripts.check", () => {
  it("should compile scripts and modules, validate the configuration, write declarations and run script tests", async () => {
    const project = projectWith({
      "scripts/scripts.config.json": JSON.stringify({ kinds: { Part: { fields: { position: "read" } } } }),
      "scripts/door.js": "import { clamp } from 'modules/math'; export default { onTick() { this.state.x = clamp(5, 0, 3) } }",
      "scripts/modules/math.js": "export const clamp = (x, a, b) => Math.min(b, Math.max(a, x));",
      "scripts/ai.py": "def on_tick(self, dt):\n    pass\n",
      "scripts/broken.py": "x = 1\ndef on_tick(:\n    pass\n",
      "scripts/math.test.js": [
        "import { test, assert } from '@playfield/test';",
        "import { clamp } from 'modules/math';",
        "test('clamp keeps values in range', () => { assert.equal(clamp(5, 0, 3), 3); });",
        "test('parts fall to the ground', async () => { const p = game.spawn('Part', { position: { x: 0, y: 5, z: 0 } }); await wait(3000); assert.equal(p.position.y, 0.5); });",
        "test('a wrong sum', () => { assert.deepEqual({ a: 1 + 1 }, { a: 3 }); });",
      ].join("\n"),
    });
    const editor = editorFor(project);
    const result = (await editor.runtime.run("editor.scripts.check")) as { ok: boolean; report: string[] };
    expect(result.report).toEqual([
      "compile scripts/ai.py: ok",
      "compile scripts/broken.py: failed: SyntaxError: invalid syntax (broken.py, line 2)",
      "compile scripts/door.js: ok",
      "compile scripts/math.test.js: ok",
      "compile scripts/modules/math.js: ok",
      "config scripts/scripts.config.json: ok",
      "types scripts/playfield.d.ts: written",
      "types scripts/playfield.pyi: written",
      "test scripts/math.test.js: clamp keeps values in range: ok",
      "test scripts/math.test.js: parts fall to the ground: ok",
      'test scripts/math.test.js: a wrong sum: failed: AssertionError: expected {"a":3}, got {"a":2}',
    ]);
    expect(result.ok).toBe(false);
    expect(readFileSync(join(project, "scripts/playfield.d.ts"), "utf8")).toContain("interface Part {");
    expect(readFileSync(join(project, "scripts/playfield.pyi"), "utf8")).toContain("class Part:");
  });

  it("should compile every .py file with file and line, and run test_*.py files' test functions in source order", async () => {
    const project = projectWith({
      "scripts/lib/mathx.py": "def clamp(v, lo, hi):\n    return max(lo, min(hi, v))\n",
      "scripts/lib/broken.py": "def f(:\n    pass\n",
      "scripts/tests/test_world.py": [
        "from lib.mathx import clamp",
        "from playfield import game, Vector3",
        "",
        "def test_clamp():",
        "    assert clamp(5, 0, 3) == 3",
        "",
        "async def test_parts_fall():",
        "    p = game.spawn('Part', position=Vector3(x=0, y=5, z=0))",
        "    await wait(3000)",
        "    assert p.position['y'] == 0.5, p.position",
        "",
        "def test_a_wrong_sum():",
        "    assert 1 + 1 == 3, 'one and one'",
        "",
        "async def test_late_failure():",
        "    await wait(100)",
        "    raise ValueError('after a wait')",
        "",
        "def helper_not_a_test():",
        "    raise RuntimeError('never run')",
      ].join("\n"),
      "scripts/test_empty.py": "x = 1\n",
    });
    const result = (await editorFor(project).runtime.run("editor.scripts.check")) as { ok: boolean; report: string[] };
    expect(result.ok).toBe(false);
    expect(result.report.filter((l) => l.startsWith("compile ") || l.startsWith("test "))).toEqual([
      "compile scripts/lib/broken.py: failed: SyntaxError: invalid syntax (lib/broken.py, line 1)",
      "compile scripts/lib/mathx.py: ok",
      "compile scripts/test_empty.py: ok",
      "compile scripts/tests/test_world.py: ok",
      "test scripts/test_empty.py: no tests",
      "test scripts/tests/test_world.py: test_clamp: ok",
      "test scripts/tests/test_world.py: test_parts_fall: ok",
      "test scripts/tests/test_world.py: test_a_wrong_sum: failed: AssertionError: one and one (tests/test_world.py, line 13)",
      "test scripts/tests/test_world.py: test_late_failure: failed: ValueError: after a wait (tests/test_world.py, line 17)",
    ]);
  });

  it("should report a script that does not compile, a missing import and each configuration problem", async () => {
    const project = projectWith({
      "scripts/scripts.config.json": JSON.stringify({ fuel_per_tick: -1, kinds: { Rocket: {}, Part: { fields: { mass: "write" } } } }),
      "scripts/broken.js": "export default { onTick() { this.state.n += } }",
      "scripts/lost.js": "import { x } from './nowhere'; export default {}",
    });
    const result = (await editorFor(project).runtime.run("editor.scripts.check")) as { ok: boolean; report: string[] };
    expect(result.ok).toBe(false);
    expect(result.report.slice(0, 5)).toEqual([
      expect.stringMatching(/^compile scripts\/broken\.js: failed: SyntaxError: /),
      'compile scripts/lost.js: failed: import "./nowhere": module not found (nowhere.js)',
      "config scripts/scripts.config.json: script configuration: fuel_per_tick: Too small: expected number to be >0; using 200000",
      "config scripts/scripts.config.json: kinds.Rocket: unknown kind Rocket",
      "config scripts/scripts.config.json: kinds.Part.fields.mass: write granted on the read-only field Part.mass",
    ]);
  });

  it("should answer ok for a clean project", async () => {
    const project = projectWith({ "scripts/door.js": COUNTER });
    const result = (await editorFor(project).runtime.run("editor.scripts.check")) as { ok: boolean; report: string[] };
    expect(result).toEqual({ ok: true, report: ["compile scripts/door.js: ok", "config scripts/scripts.config.json: ok (no file: defaults)", "types scripts/playfield.d.ts: written", "types scripts/playfield.pyi: written"] });
    expect(existsSync(join(project, "scripts/playfield.pyi"))).toBe(true);
  });
});

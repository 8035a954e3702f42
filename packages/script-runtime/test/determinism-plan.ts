import type { ScriptList, ScriptRuntime, ScriptRuntimeOptions } from "../src/index.js";
import { createReferenceWorld } from "../src/kinds/reference-world.js";

/*
 * The determinism plan: JavaScript and Python scripts using timers, awaits,
 * modules, seeded randomness, hot reloads and (Python) a handler that now
 * and then runs out of fuel, a Python script moving a part of the reference
 * world (as the command line's scripts see it), and the commands fed to them
 * over 1,000 ticks. Runtimes in process, in a second process and in a
 * browser must all end with the same script.list.
 */

/** How many ticks the plan runs. */
export const PLAN_TICKS = 1000;

export const MODULES = {
  "lib/dice.js": "export const roll = (sides) => 1 + Math.floor(Math.random() * sides);",
  "lib/math.js": "import { roll } from './dice.js'; export const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v)); export { roll };",
  "lib/dice.py": "import random\n\ndef roll(sides):\n    return 1 + int(random.random() * sides)\n",
  "lib/mathx.py": "from .dice import roll\n\ndef clamp(v, lo, hi):\n    return max(lo, min(hi, v))\n",
};

const WALKER = `import { clamp, roll } from "lib/math";
export default {
  init() { return { x: 0, steps: 0 } },
  onTick() { this.state.x = clamp(this.state.x + roll(6) - 3, -50, 50); this.state.steps += 1 },
}`;
const WAITER = `export default {
  init() { return { woke: [], t: 0 } },
  onLoad() { this.loop() },
  async loop() {
    for (;;) { await wait(70 + Math.floor(Math.random() * 90)); this.state.woke.push(Date.now() % 1000); if (this.state.woke.length > 8) this.state.woke.shift() }
  },
  onTick(dt) { this.state.t += dt },
}`;
const TIMERS = `export default {
  init() { return { beats: 0, last: 0 } },
  onLoad() { setInterval(() => { this.state.beats += 1; this.state.last = Date.now() }, 33) },
  on: { hit(data) { this.state.beats += data.power } },
}`;
const PY_WALKER = `from lib.mathx import clamp, roll

def init():
    return {"x": 0, "steps": 0, "path": []}

def on_tick(self, dt):
    self.state["x"] = clamp(self.state["x"] + roll(6) - 3, -50, 50)
    self.state["steps"] += 1
    self.state["path"] = (self.state["path"] + [self.state["x"] / 3])[-5:]
`;
const PY_TIMERS = `import time

def on_load(self, reloaded):
    self.state.setdefault("beats", 0)
    def beat():
        self.state["beats"] += 1
        self.state["last"] = time.ticks_ms()
    set_interval(beat, 33)

def on_hit(self, data):
    self.state["beats"] += data["power"]
`;
const PY_SPINNER = `import random

def init():
    return {"ok": 0}

def on_tick(self, dt):
    self.state["ok"] += 1
    if random.random() < 0.01:
        while True:
            pass
`;
const PY_BUILDER = `from playfield import game, Vector3

def init():
    return {"part": None, "ys": [], "pushes": 0}

def on_load(self, reloaded):
    if self.state["part"] is None:
        self.state["part"] = game.spawn("Part", name="py-crate", position=Vector3(x=0, y=20, z=0)).id
    set_interval(lambda: push(self), 700)

def push(self):
    game.get(self.state["part"]).apply_impulse({"x": 1.5, "y": 4.0, "z": -0.5})
    self.state["pushes"] += 1

def on_tick(self, dt):
    part = game.get(self.state["part"])
    self.state["ys"] = (self.state["ys"] + [round(part.position["y"], 3)])[-5:]
    self.state["d"] = part.distance_to({"x": 0.0, "y": 0.0, "z": 0.0})
`;
const RELOADED = (v: number) => `export default { init() { return { v: 0, sum: 0 } }, onTick() { this.state.v = ${v}; this.state.sum += ${v} * Math.random() } }`;

/** The runtime options of the plan: its modules, its seed and the reference world (the command line's kinds). */
export const planOptions = (): ScriptRuntimeOptions => ({ modules: MODULES, seed: 7, kinds: createReferenceWorld() });

/** Feeds the same command sequence to a runtime (in process or through lines). */
export function plan(): { at: number; command: string; args: Record<string, unknown> }[] {
  const steps: { at: number; command: string; args: Record<string, unknown> }[] = [
    { at: 0, command: "script.load", args: { name: "walker", source: WALKER } },
    { at: 0, command: "script.load", args: { name: "waiter", source: WAITER } },
    { at: 0, command: "script.load", args: { name: "timers", source: TIMERS } },
    { at: 0, command: "script.load", args: { name: "reloaded", source: RELOADED(1) } },
    { at: 0, command: "script.load", args: { name: "py-walker", source: PY_WALKER, language: "py" } },
    { at: 0, command: "script.load", args: { name: "py-timers", source: PY_TIMERS, language: "py" } },
    { at: 0, command: "script.load", args: { name: "py-builder", source: PY_BUILDER, language: "py" } },
    { at: 5, command: "script.load", args: { name: "py-spinner", source: PY_SPINNER, language: "py" } },
  ];
  for (let t = 50; t < 1000; t += 100) {
    steps.push({ at: t, command: "script.load", args: { name: "reloaded", source: RELOADED(t) } });
    steps.push({ at: t + 10, command: "runtime.emit", args: { event: "hit", data: { power: t % 7 } } });
  }
  steps.push({ at: 300, command: "script.pause", args: { name: "waiter" } });
  steps.push({ at: 420, command: "script.resume", args: { name: "waiter" } });
  steps.push({ at: 350, command: "script.pause", args: { name: "py-timers" } });
  steps.push({ at: 380, command: "script.resume", args: { name: "py-timers" } });
  steps.push({ at: 500, command: "script.load", args: { name: "py-walker", source: PY_WALKER.replace("- 3", "- 2"), language: "py" } });
  steps.push({ at: 600, command: "script.unload", args: { name: "walker" } });
  steps.push({ at: 650, command: "script.load", args: { name: "walker", source: WALKER } });
  return steps.sort((a, b) => a.at - b.at);
}

/** Runs the plan on a runtime and answers its `script.list` after the last tick. */
export async function drive(runtime: ScriptRuntime): Promise<ScriptList> {
  let tick = 0;
  for (const step of plan()) {
    if (step.at > tick) { await runtime.step(step.at - tick); tick = step.at; }
    await runtime.run(step.command, step.args);
  }
  await runtime.step(PLAN_TICKS - tick);
  return (await runtime.run("script.list")) as ScriptList;
}

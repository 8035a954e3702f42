import type { HandlerFault, ModuleSource, Sandbox, SandboxApi, ScriptEvent, StepOutcome } from "../engine/sandbox.js";
import { MAX_STATE_DEPTH } from "../state/binary-state.js";
import { readPythonState } from "./python-literal.js";
import { EngineTrap } from "./engine-traps.js";
import { PythonError, createMicroPython } from "./micropython-instance.js";
import type { EngineSnapshot, MicroPython, PyValue } from "./micropython-instance.js";
import { PYTHON_PRELUDE, PYTHON_SEAL } from "./python-prelude.js";
import { scanPythonModules } from "./python-module-scan.js";
import { probeStackLimit } from "./stack-limit-probe.js";
import { seededWords } from "./seeded-words.js";

/** Limits and inputs of one Python script's sandbox. */
export interface PythonSandboxOptions {
  /** The rewritten MicroPython module (see `pythonEngineModule`). */
  module: WebAssembly.Module;
  name: string;
  memoryLimitBytes: number;
  /** Largest canonical JSON of `self.state`, in characters. */
  maxStateBytes: number;
  /** Fuel for running the module and `init` and `on_load` (and for reloading after a fault that stopped the interpreter). */
  loadFuel: number;
  seed: readonly [number, number, number, number];
  epochMs: number;
  modules: ModuleSource;
  onConsole?: (level: string, text: string) => void;
  /** The game's in-script API for Python (`scriptApiSourcePy`): its source is the module `playfield`. */
  api?: SandboxApi;
}

/** Fuel a call into the game costs, besides the work of its JSON (as for JavaScript scripts). */
const HOST_CALL_FUEL = 100;

/** MicroPython's first heap: small, since most scripts hold little; it grows in chunks up to the memory limit. */
const HEAP_BYTES = 128 * 1024;
const PYSTACK_BYTES = 16 * 1024;
/** Output one call may print; the rest is dropped. */
const OUTPUT_CAP_BYTES = 64 * 1024;
const TIMERS_DUE = 1;
const HOUSEKEEPING_FUEL = 1 << 30;

/** A call's answer, read: the state did not change, a new state, a fault (already rolled back in Python), or a timer is due. */
type Answer = { kind: "unchanged" } | { kind: "state"; json: string } | { kind: "fault"; reason: string; handler?: string } | { kind: "timers due" };
const UNCHANGED: Answer = { kind: "unchanged" };
/** A step's faults when there are none (shared: never written). */
const NO_FAULTS: HandlerFault[] = [];

/** The handler calls of the prelude, by their global names. */
const CALLS = ["_attach", "_on_load", "_has_tick", "_quick", "_tick", "_set_now", "_next_due", "_fire_next", "_event", "_provide", "_restore", "_explain"] as const;
type Calls = Record<(typeof CALLS)[number], number>;

const started = new WeakMap<WebAssembly.Module, { snapshot: EngineSnapshot; calls: Calls }>();

/**
 * An interpreter with the prelude run and sealed, as a snapshot: every
 * script's instance starts as a copy of it (compiling the prelude is most of
 * an instance's start). Nothing in it depends on a script: the generator
 * is seeded when a script first imports `random`.
 */
export function startedPrelude(module: WebAssembly.Module): { snapshot: EngineSnapshot; calls: Calls } {
  let found = started.get(module);
  if (!found) {
    const instance = createMicroPython(module, {
      memoryLimitBytes: 64 * 1024 * 1024, heapBytes: HEAP_BYTES, pystackBytes: PYSTACK_BYTES,
      nowMs: () => 0, randomU32: () => { throw new Error("the prelude draws no random numbers"); }, outputCapBytes: 0,
    });
    instance.fuel = HOUSEKEEPING_FUEL;
    instance.exec(PYTHON_PRELUDE);
    const stack = probeStackLimit(instance.snapshot(), PYSTACK_BYTES);
    const stackAt = instance.global("_stack_at");
    if (stackAt === null || typeof stackAt !== "object") throw new Error("the Python prelude has no _stack_at");
    instance.call(stackAt.ref, [stack.address, stack.limit]);
    const calls = {} as Calls;
    for (const call of CALLS) {
      const ref = instance.global(call);
      if (ref === null || typeof ref !== "object") throw new Error(`the Python prelude has no ${call}`);
      calls[call] = ref.ref;
    }
    instance.exec(PYTHON_SEAL);
    found = { snapshot: instance.snapshot(), calls };
    started.set(module, found);
  }
  return found;
}

/** A Python handler's failure that the sandbox turns into a fault. */
class Fault extends Error {}

/**
 * Creates the sandbox of one Python script: its own MicroPython instance
 * (the interpreter, its heap and its fuel counter), with the same contract
 * as a JavaScript script's sandbox. A fault that stops the interpreter
 * (out of fuel, out of memory, reaching for the host) discards the
 * instance: the script is loaded again from its source with the committed
 * `self.state`, as a hot reload (`on_load(self, True)`), within `load_fuel`.
 */
export function createPythonSandbox(options: PythonSandboxOptions): Sandbox {
  const { name, api } = options;
  const words = seededWords(options.seed);
  let now = options.epochMs;
  /** The simulated time the host last gave the script (its load's, its tick's): the time of its calls into the game. */
  let hostNow = options.epochMs;
  let source = "";
  let committed = "{}";
  let hasTick = false;
  let isBroken = false;
  let mp: MicroPython | undefined;
  let calls: Calls | undefined;
  let projectModules = new Map<string, string>();

  const start = (): { mp: MicroPython; calls: Calls } => {
    const base = startedPrelude(options.module);
    const instance = createMicroPython(options.module, {
      memoryLimitBytes: options.memoryLimitBytes,
      heapBytes: HEAP_BYTES,
      pystackBytes: PYSTACK_BYTES,
      nowMs: () => now,
      randomU32: words,
      onOutput: options.onConsole ? (text) => { for (const line of text.replace(/\n$/, "").split("\n")) options.onConsole?.("log", line); } : undefined,
      outputCapBytes: OUTPUT_CAP_BYTES,
      hostCall: api ? (op, args) => {
        instance.fuel -= HOST_CALL_FUEL;
        return api.call(op, args, hostNow);
      } : undefined,
    }, base.snapshot);
    instance.fuel = HOUSEKEEPING_FUEL;
    for (const [path, text] of projectModules) instance.call(base.calls._provide, [path, text]);
    if (api) instance.call(base.calls._provide, ["playfield.py", api.source]);
    return { mp: instance, calls: base.calls };
  };

  /** Reads a handler call's answer; a fault, or a state the host refuses, rolls the state back in Python. */
  const read = (value: PyValue): Answer => {
    if (value === null) return UNCHANGED;
    if (value === TIMERS_DUE) return { kind: "timers due" };
    if (typeof value === "number") {
      // The address of the changed state's bytes in the engine's memory.
      const json = readPythonState(mp!.memory(), value, MAX_STATE_DEPTH);
      if (json === undefined) {
        // The walk reads the state the answer held, with no script code: on the host's fuel.
        const why = housekeeping((instance, refs) => instance.call(refs._explain, []));
        return rolledBack(typeof why === "string" ? why : "self.state is not JSON data");
      }
      if (json.length > options.maxStateBytes) return rolledBack(`self.state is larger than max_state_bytes (${options.maxStateBytes})`);
      return { kind: "state", json };
    }
    if (typeof value !== "string") throw new Fault("the script's answer was not understood");
    if (value.startsWith("\x00\x02")) {
      // A fault after an await names the handler that awaited: "\x00\x02on_tick (after await)\x02reason".
      const end = value.indexOf("\x02", 2);
      return rolledBack(value.slice(end + 1), value.slice(2, end));
    }
    if (value.startsWith("\x00")) return rolledBack(value.slice(1));
    throw new Fault("the script's answer was not understood");
  };
  /**
   * Rolls self.state back to the committed state. Setting it may run the
   * script's own code (a property on its class), so this runs on what is
   * left of the call's fuel: running out stops the interpreter, which is
   * then reloaded with the committed state.
   */
  const rolledBack = (reason: string, handler?: string): Answer => {
    mp!.call(calls!._restore, [committed]);
    return handler === undefined ? { kind: "fault", reason } : { kind: "fault", reason, handler };
  };
  /** The host's own calls into the prelude, which run no script code, are not the script's work: they run on fuel of their own. */
  const housekeeping = <T>(f: (instance: MicroPython, refs: Calls) => T): T => {
    const { mp: instance, calls: refs } = live();
    const left = instance.fuel;
    instance.fuel = HOUSEKEEPING_FUEL;
    try {
      return f(instance, refs);
    } finally {
      instance.fuel = left;
    }
  };
  const live = () => {
    if (!mp || !calls) ({ mp, calls } = start());
    return { mp, calls };
  };

  // A step's progress, kept here so that a tick makes no closure (with a thousand scripts, per-call allocations show).
  let spent = 0;
  let stopped = false;
  let budget = 0;
  let faults = NO_FAULTS;
  const tickArgs: [number, number] = [0, 0];
  const fault = (handler: string, reason: string) => {
    if (faults === NO_FAULTS) faults = [];
    faults.push({ handler, reason });
  };
  /** Runs one handler call of the prelude within what is left of the step's budget (`stopped` when the script stops for this tick). */
  const attempt = (handler: string, call: keyof Calls, args: readonly (number | string)[]): Answer | undefined => {
    if (!mp || !calls) ({ mp, calls } = start());
    const instance = mp;
    const left = budget - spent;
    instance.fuel = left;
    try {
      const answer = read(instance.call(calls[call], args));
      spent += left - Math.max(0, instance.fuel);
      if (answer.kind === "fault") fault(answer.handler ?? handler, answer.reason);
      else commit(answer);
      if (spent >= budget) stopped = true;
      return answer;
    } catch (error) {
      spent = error instanceof EngineTrap && error.reason === "out of fuel" ? budget : spent + left - Math.max(0, instance.fuel);
      fault(handler, error instanceof EngineTrap ? describeTrap(error, budget) : error instanceof Fault ? error.message : `engine failure: ${error instanceof Error ? error.message : String(error)}`);
      stopped = true;
      recover();
      return undefined;
    }
  };
  const commit = (answer: Answer) => {
    if (answer.kind === "state") committed = answer.json;
  };
  const describeTrap = (error: EngineTrap, budget: number) =>
    error.reason === "out of fuel" ? `out of fuel (fuel_per_tick ${budget})` : error.message;

  /** Loads the module into a fresh instance, adopting `stateJson` or running init; then on_load. Answers the fuel used. */
  const loadInto = (stateJson: string | undefined, reloaded: boolean): number => {
    mp = undefined;
    calls = undefined;
    const { mp: instance, calls: refs } = live();
    instance.fuel = HOUSEKEEPING_FUEL;
    instance.call(refs._set_now, [now]);
    instance.fuel = options.loadFuel;
    let handler = "module";
    try {
      const raw = instance.call(refs._attach, [name, `${name}.py`, source, ...(stateJson === undefined ? [] : [stateJson])]);
      if (typeof raw === "string" && raw.startsWith("\x01")) {
        handler = "init";
        throw new Fault(raw.slice(1));
      }
      const attached = read(raw);
      if (attached.kind === "fault") throw new Fault(attached.reason);
      if (stateJson !== undefined) committed = stateJson;
      else if (attached.kind === "state") commit(attached);
      handler = "on_load";
      const loaded = read(instance.call(refs._on_load, [reloaded ? 1 : 0]));
      if (loaded.kind === "fault") throw new Fault(loaded.reason);
      commit(loaded);
      const used = options.loadFuel - instance.fuel;
      hasTick = instance.call(refs._has_tick, []) === true;
      return used;
    } catch (error) {
      mp = undefined;
      calls = undefined;
      const reason = error instanceof Fault ? error.message
        : error instanceof EngineTrap ? (error.reason === "out of fuel" ? `out of fuel (load_fuel ${options.loadFuel})` : error.message)
        : error instanceof PythonError ? error.detail.trim().split("\n").pop()! : `engine failure: ${error instanceof Error ? error.message : String(error)}`;
      const fault = { handler, reason };
      throw Object.assign(new Error(`${fault.handler}: ${fault.reason}`), { fault });
    }
  };

  /** After a trap: the interpreter is discarded and the script reloaded with its committed state. */
  const recover = () => {
    mp = undefined;
    calls = undefined;
    try {
      loadInto(committed, true);
    } catch {
      isBroken = true;
    }
  };

  return {
    stateJson: () => committed,
    load(text, stateJson) {
      source = text;
      projectModules = scanPythonModules(text, options.modules);
      // A reload adopts the committed state as canonical JSON, which is JSON the prelude reads as well.
      return loadInto(stateJson, stateJson !== undefined);
    },
    step(simNow, dt, events, tickBudget) {
      if (isBroken) return { fuelUsed: 0, faults: NO_FAULTS };
      spent = 0;
      stopped = false;
      budget = tickBudget;
      faults = NO_FAULTS;
      now = simNow;
      hostNow = simNow;
      tickArgs[0] = simNow;
      tickArgs[1] = dt;
      if (events.length === 0) {
        const answer = attempt("on_tick", "_quick", tickArgs);
        if (answer?.kind !== "timers due") return { fuelUsed: Math.min(budget, spent), faults };
      }
      const nextDue = (): number => {
        const due = housekeeping((instance, refs) => instance.call(refs._next_due, []));
        return typeof due === "number" ? due : -1;
      };
      let due = nextDue();
      while (!stopped && !isBroken && due !== -1 && due <= simNow) {
        now = due;
        attempt("timer", "_fire_next", [simNow]);
        now = simNow;
        if (!stopped && !isBroken) due = nextDue();
      }
      for (const event of events) {
        if (stopped || isBroken) break;
        attempt(`event ${event.name}`, "_event", [simNow, event.name, event.dataJson]);
      }
      if (!stopped && !isBroken) {
        if (hasTick) attempt("on_tick", "_tick", tickArgs);
        else housekeeping((instance, refs) => instance.call(refs._set_now, [simNow]));
      }
      return { fuelUsed: Math.min(budget, spent), faults };
    },
    setNow(simNow) {
      now = simNow;
      hostNow = simNow;
      if (!isBroken) housekeeping((instance, refs) => instance.call(refs._set_now, [simNow]));
    },
    broken: () => isBroken,
    dispose() {
      mp = undefined;
      calls = undefined;
    },
  };
}

export type { ScriptEvent, StepOutcome };

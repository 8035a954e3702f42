import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten";
import type { EngineCell } from "./engine-cell.js";
import { contextPointer } from "./counter-probe.js";
import type { ValueTags } from "./answer-layout.js";
import { createDirectCalls } from "./direct-calls.js";
import type { DirectAnswer } from "./direct-calls.js";
import { createFuelMeter } from "./fuel-meter.js";
import type { FuelMeter, Watchdog } from "./fuel-meter.js";
import { PRELUDE_SOURCE } from "./prelude.js";
import { normalizeModuleName } from "./module-names.js";
import { MAX_SOURCE_NESTING, sourceNesting } from "./source-nesting.js";
import { MAX_STATE_DEPTH, readCanonicalState } from "../state/binary-state.js";

/** Where a script's imports come from: a module path (e.g. `lib/math.js`) to its source. */
export type ModuleSource = (path: string) => string | undefined;

/** Limits and inputs of one sandbox. */
export interface SandboxOptions {
  cell: EngineCell;
  counterOffset: number;
  /** How this build tags the answers that are not a state (probed once per pool). */
  valueTags: ValueTags;
  name: string;
  memoryLimitBytes: number;
  maxStackBytes: number;
  /** Largest canonical JSON of `this.state`, in characters. */
  maxStateBytes: number;
  /** Real time a metered call may run before it stops with a fault; 0: no limit (see {@link Watchdog}). */
  watchdogMs: number;
  /** Fuel for evaluating the module and running `init` and `onLoad`. */
  loadFuel: number;
  /** Four 32-bit words seeding `Math.random`. */
  seed: readonly [number, number, number, number];
  epochMs: number;
  modules: ModuleSource;
  onConsole?: (level: string, text: string) => void;
  /** The game's in-script API (kinds), installed after the prelude and before the script. */
  api?: SandboxApi;
  /** Whether the script may make BigInts (default true; players' scripts may not: see docs/scripts.md). */
  bigInts?: boolean;
}

/**
 * SandboxApi is an in-script API offered by the embedding game: `source` is
 * a global function expression called once as `source(hostCall, charge)`
 * before the script runs; `hostCall(op, argsJson)` reaches `call`, which
 * answers JSON text and never throws. `nowMs` is the host's simulated time
 * of the call (the tick's, or the load's): what the script writes into its
 * arguments is never taken as the time.
 */
export interface SandboxApi {
  source: string;
  call(op: string, argsJson: string, nowMs: number): string;
}

/** A fault of one handler call. */
export interface HandlerFault {
  handler: string;
  reason: string;
}

/** What one tick of a script did. */
export interface StepOutcome {
  fuelUsed: number;
  faults: HandlerFault[];
}

/** One event for scripts' `on` handlers. */
export interface ScriptEvent {
  name: string;
  /** The event's data as JSON text. */
  dataJson: string;
}

/**
 * Sandbox is one script's QuickJS runtime and context inside an engine cell:
 * it loads the script, runs its handlers under the fuel meter, keeps the
 * committed `this.state` (canonical JSON) and rolls it back when a handler
 * faults.
 */
export interface Sandbox {
  /** Canonical JSON of the state after the last successful handler call. */
  stateJson(): string;
  /**
   * Evaluates the module and runs `init` (fresh state) or adopts `stateJson`
   * (reload), then `onLoad`. Throws a {@link HandlerFault} on failure.
   */
  load(source: string, stateJson: string | undefined): number;
  /** Runs due timers (each at its due time), the events, then `onTick`, all within `budget`. */
  step(simNow: number, dt: number, events: readonly ScriptEvent[], budget: number): StepOutcome;
  /** Moves the script's clock without running anything. */
  setNow(simNow: number): void;
  /** Whether a fault left the sandbox unusable (it should be rebuilt). */
  broken(): boolean;
  dispose(): void;
}

/** Fuel of the host's own calls into the prelude that run no script code (rolling the state back, moving the clock). */
const HOUSEKEEPING_FUEL = 50_000_000;
/** A fault's reason when describing the thrown value failed or ran out of fuel. */
const UNDESCRIBED = "threw a value that could not be described";

/** A state read from a handler's answer, committed once the whole call succeeds. */
interface StateRead {
  json: string;
  /** Its binary JSON: the next answer with the same bytes is the same state. */
  bytes: Uint8Array;
}
/** What a handler call settled to: nothing ran, a timer is due, the state as committed, or a new state. */
type Settled = "nothing" | "timers due" | "unchanged" | StateRead;

/** Creates a sandbox with the prelude installed (no script loaded yet). */
export function createSandbox(options: SandboxOptions): Sandbox {
  const { cell, name } = options;
  const runtime: QuickJSRuntime = cell.module.newRuntime();
  runtime.setMemoryLimit(options.memoryLimitBytes);
  runtime.setMaxStackSize(options.maxStackBytes);
  let context: QuickJSContext | undefined;
  const handles: QuickJSHandle[] = [];
  let isBroken = false;
  let committed = "{}";
  /** The simulated time the host last gave the script (its load's, its tick's): the time of its calls into the game. */
  let hostNow = options.epochMs;
  try {
    context = runtime.newContext();
    const ctx = context;
    const counterIndex = (contextPointer(ctx) + options.counterOffset) >> 2;
    const heap = cell.heap32;
    const watchdog: Watchdog | undefined = options.watchdogMs > 0 ? { now: () => performance.now(), limitMs: options.watchdogMs } : undefined;
    const meter: FuelMeter = createFuelMeter({
      read: () => heap[counterIndex]!,
      write: (v) => { heap[counterIndex] = v; },
    }, watchdog);
    runtime.setInterruptHandler(() => meter.onInterrupt());
    runtime.setModuleLoader(
      (path) => {
        const source = options.modules(path);
        if (source === undefined) return { error: new Error(`module not found: ${path}`) };
        if (sourceNesting(source) > MAX_SOURCE_NESTING) return { error: new Error(`module ${path} is nested deeper than ${MAX_SOURCE_NESTING} levels`) };
        return source;
      },
      (base, requested) => normalizeModuleName(base, requested),
    );

    const keep = (h: QuickJSHandle) => { handles.push(h); return h; };
    // Answers whether the budget is spent, so a built-in asking for more than is left does not run.
    const charge = keep(ctx.newFunction("charge", (units) => {
      meter.charge(ctx.getNumber(units));
      return meter.exhausted() ? ctx.true : ctx.false;
    }));
    const log = keep(ctx.newFunction("log", (level, text) => { options.onConsole?.(ctx.getString(level), ctx.getString(text)); }));

    meter.begin(HOUSEKEEPING_FUEL);
    const preludeFn = keep(ctx.unwrapResult(ctx.evalCode(PRELUDE_SOURCE, "prelude.js", { type: "global", strict: true })));
    const args = [charge, log, ...options.seed.map((w) => ctx.newNumber(w | 0)), ctx.newNumber(options.epochMs), options.bigInts === false ? ctx.false : ctx.true];
    const apiResult = ctx.callFunction(preludeFn, ctx.undefined, args);
    for (const a of args.slice(2)) a.dispose();
    const api = keep(ctx.unwrapResult(apiResult));
    if (options.api) {
      const game = options.api;
      const hostCall = keep(ctx.newFunction("hostCall", (op, json) => ctx.newString(game.call(ctx.getString(op), ctx.getString(json), hostNow))));
      const setup = keep(ctx.unwrapResult(ctx.evalCode(game.source, "api.js", { type: "global", strict: true })));
      ctx.unwrapResult(ctx.callFunction(setup, ctx.undefined, hostCall, charge)).dispose();
    }
    const fn = (key: string) => keep(ctx.getProp(api, key));
    const attachFn = fn("attach");
    const onLoadFn = fn("onLoad");
    const hasTickFn = fn("hasTick");
    const tickFn = fn("tick");
    const quickTickFn = fn("quickTick");
    const fireNextFn = fn("fireNext");
    const nextDueFn = fn("nextDue");
    const setNowFn = fn("setNow");
    const eventFn = fn("event");
    const settleFn = fn("settle");
    const explainFn = fn("explain");
    const restoreFn = fn("restore");
    const currentFn = fn("current");
    const describeFn = fn("describe");

    /** Calls an API function; returns the result handle or the error handle. */
    const call = (f: QuickJSHandle, ...values: (number | string)[]) => {
      const argHandles = values.map((v) => (typeof v === "number" ? ctx.newNumber(v) : ctx.newString(v)));
      try {
        return ctx.callFunction(f, ctx.undefined, argHandles);
      } finally {
        for (const h of argHandles) h.dispose();
      }
    };
    const callString = (f: QuickJSHandle, ...values: (number | string)[]): string => {
      const result = call(f, ...values);
      if (result.error) throw new CallFailed(result.error);
      const kind = ctx.typeof(result.value);
      const text = kind === "string" ? ctx.getString(result.value) : kind === "number" ? String(ctx.getNumber(result.value)) : String(ctx.dump(result.value));
      result.value.dispose();
      return text;
    };
    const direct = createDirectCalls(ctx, cell.heap32, options.valueTags);
    const outOfMemory = `out of memory (memory limit ${options.memoryLimitBytes} bytes)`;
    let committedBytes: Uint8Array | undefined;
    /**
     * Reads what a handler call answered. A state is charged a fuel unit per
     * byte of its binary JSON; the same bytes as the committed state mean
     * no change, so only a changed state is read as canonical JSON.
     */
    const settle = (answer: DirectAnswer): Settled => {
      switch (answer.kind) {
        case "thrown": throw new CallFailed(answer.error);
        case "nothing":
        case "timers due": return answer.kind;
        case "out of memory": throw new ScriptFailure(outOfMemory);
        case "unwritable": {
          try {
            explain();
          } catch (error) {
            answer.error.dispose();
            throw error;
          }
          throw new CallFailed(answer.error);
        }
        case "state": {
          const { bytes, start, end } = answer;
          try {
            meter.charge(end - start);
            if (meter.exhausted()) throw new ScriptFailure("out of fuel");
            if (committedBytes !== undefined && sameBytes(bytes, start, end, committedBytes)) return "unchanged";
            const reading = readCanonicalState(bytes, start, end, MAX_STATE_DEPTH, options.maxStateBytes);
            if (reading.tooLarge) throw new ScriptFailure(`this.state is larger than max_state_bytes (${options.maxStateBytes})`);
            if (reading.problem !== undefined) {
              explain();
              throw new ScriptFailure(`this.state is not JSON data: ${reading.problem}`);
            }
            return { json: reading.json, bytes: bytes.slice(start, end) };
          } finally {
            direct.release(start);
          }
        }
      }
    };
    /** Throws where this.state is not JSON data, when the prelude's check can say (it runs under the call's fuel). */
    const explain = () => { callString(explainFn); };
    /** Calls an API function with numbers and settles its answer. */
    const callSettled = (f: QuickJSHandle, ...numbers: number[]): Settled => settle(direct.call(f, ...numbers));
    const quickTick = direct.bind2(quickTickFn);
    const nextTick = direct.bind0(quickTickFn);
    // The usual tick's call, made once (a tick makes no closure): its
    // arguments and whether a timer turned out to be due.
    let tickNow = 0;
    let tickDt = 0;
    let timersDue = false;
    // The script's clock and dt after the last quick tick that ran, when
    // nothing has moved its clock since: the next tick then needs no arguments.
    let lastNow = Number.NaN;
    let lastDt = Number.NaN;
    const quickBody = (): Settled => {
      const follows = tickDt === lastDt && tickNow === lastNow + tickDt;
      lastNow = Number.NaN;
      const settled = settle(follows ? nextTick() : quickTick(tickNow, tickDt));
      timersDue = settled === "timers due";
      if (!timersDue) { lastNow = tickNow; lastDt = tickDt; }
      return settled;
    };
    const drain = () => {
      if (!direct.hasPendingJob()) return;
      const result = runtime.executePendingJobs(-1);
      if (result.error) throw new CallFailed(result.error);
      result.dispose();
      // An interrupted job is not always reported as an error.
      if (meter.exhausted() || meter.overtime()) throw new ScriptFailure("stopped");
    };
    const housekeeping = <T>(f: () => T): T => {
      meter.begin(HOUSEKEEPING_FUEL);
      return f();
    };

    /**
     * Turns a failed call into a fault, with the call's fuel used and
     * whether it stopped. Describing a thrown value runs on what is left of
     * the call's fuel, under its watchdog: it can reach the script's code (a
     * Proxy's traps), which never runs for free.
     */
    const toFault = (error: unknown, budget: number): { fault: HandlerFault; used: number; stopped: boolean } => {
      const exhausted = meter.exhausted();
      const late = meter.overtime();
      let reason: string;
      if (exhausted) {
        reason = `out of fuel (fuel_per_tick ${budget})`;
      } else if (late) {
        reason = `ran longer than ${options.watchdogMs} ms of real time (watchdog_ms)`;
      } else if (error instanceof CallFailed) {
        try { reason = describeError(error.handle); } catch (e) { disposeFailure(e); reason = UNDESCRIBED; }
      } else {
        reason = error instanceof Error ? error.message : String(error);
      }
      disposeFailure(error);
      const used = meter.used();
      const stopped = meter.exhausted() || meter.overtime();
      // The handler's name is the prelude's own variable: no script code, so the host's fuel.
      let handler = "handler";
      try { handler = housekeeping(() => callString(currentFn)); } catch (e) { disposeFailure(e); }
      return { fault: { handler, reason }, used, stopped };
    };
    const describeError = (handle: QuickJSHandle): string => {
      const result = ctx.callFunction(describeFn, ctx.undefined, handle);
      if (result.error) { result.error.dispose(); return UNDESCRIBED; }
      const text = ctx.getString(result.value);
      result.value.dispose();
      if (text === "InternalError: out of memory") return outOfMemory;
      return text;
    };
    const rollback = () => {
      try {
        housekeeping(() => {
          // Jobs the faulted call left queued stay queued: they run (metered)
          // in the script's next handler call, never here for free.
          const result = call(restoreFn, committed);
          if (result.error) throw new CallFailed(result.error);
          result.value.dispose();
        });
      } catch (e) {
        disposeFailure(e);
        isBroken = true;
      }
    };
    const commit = (settled: Settled) => {
      if (typeof settled !== "object") return;
      committed = settled.json;
      committedBytes = settled.bytes;
    };
    let hasTick = false;
    /** Fuel of the current step's finished attempts that faulted (the meter restarts after a fault). */
    let spentBefore = 0;
    /** Runs one handler call; returns false when the script must stop for this tick. */
    const attempt = (faults: HandlerFault[], budget: number, body: () => Settled): boolean => {
      try {
        let settled = body();
        if (settled === "nothing" || settled === "timers due") return true;
        if (direct.hasPendingJob()) {
          drain();
          settled = callSettled(settleFn);
        }
        commit(settled);
        return true;
      } catch (error) {
        if (!isScriptFailure(error)) throw new EngineFailure(error);
        const { fault, used, stopped } = toFault(error, budget);
        faults.push(fault);
        rollback();
        spentBefore += used;
        if (stopped || spentBefore >= budget) return false;
        meter.begin(budget - spentBefore);
        return true;
      }
    };

    return {
      stateJson: () => committed,
      load(source, stateJson) {
        if (sourceNesting(source) > MAX_SOURCE_NESTING) {
          const fault = { handler: "module", reason: `source is nested deeper than ${MAX_SOURCE_NESTING} levels` };
          throw Object.assign(new Error(`${fault.handler}: ${fault.reason}`), { fault });
        }
        meter.begin(options.loadFuel);
        let ns: QuickJSHandle | undefined;
        try {
          const evaluated = ctx.evalCode(source, `${name}.js`, { type: "module", strict: true });
          if (evaluated.error) throw new CallFailed(evaluated.error);
          ns = evaluated.value;
          if (ctx.typeof(ns) === "object") {
            // A module with top-level await evaluates to a promise: let it settle within the load budget.
            let settled = ctx.getPromiseState(ns);
            if (settled.type === "pending") {
              drain();
              settled = ctx.getPromiseState(ns);
            }
            if (settled.type === "pending") throw new ScriptFailure("top-level await did not settle during load");
            if (settled.type === "rejected") throw new CallFailed(settled.error);
            if (settled.notAPromise !== true) { ns.dispose(); ns = settled.value; }
          }
          const stateArg = stateJson === undefined ? ctx.undefined : ctx.newString(stateJson);
          const nameArg = ctx.newString(name);
          const attached = ctx.callFunction(attachFn, ctx.undefined, ns, stateArg, nameArg);
          nameArg.dispose();
          if (stateJson !== undefined) stateArg.dispose();
          if (attached.error) throw new CallFailed(attached.error);
          attached.value.dispose();
          let settled = callSettled(onLoadFn, stateJson === undefined ? 0 : 1);
          if (direct.hasPendingJob()) {
            drain();
            settled = callSettled(settleFn);
          }
          commit(settled);
          // Reading onTick may run a getter of the script's: on its load fuel.
          hasTick = callString(hasTickFn) === "true";
          return meter.used();
        } catch (error) {
          if (!isScriptFailure(error)) throw new EngineFailure(error);
          const { fault } = toFault(error, options.loadFuel);
          throw Object.assign(new Error(`${fault.handler}: ${fault.reason}`), { fault });
        } finally {
          if (ns?.alive) ns.dispose();
        }
      },
      step(simNow, dt, events, budget) {
        const faults: HandlerFault[] = [];
        hostNow = simNow;
        spentBefore = 0;
        meter.begin(budget);
        let going = true;
        if (events.length === 0) {
          // The usual tick: one call runs onTick and saves, unless a timer is due.
          tickNow = simNow;
          tickDt = dt;
          timersDue = false;
          going = attempt(faults, budget, quickBody);
          if (!timersDue) return { fuelUsed: Math.min(budget, spentBefore + (going ? meter.used() : 0)), faults };
        }
        lastNow = Number.NaN; // the long way moves the script's clock
        let next = Number(callString(nextDueFn));
        while (going && next !== -1 && next <= simNow) {
          going = attempt(faults, budget, () => {
            callString(fireNextFn, simNow);
            return callSettled(settleFn);
          });
          // Awaits resumed by the timer may have set new timers: look again.
          if (going) next = Number(callString(nextDueFn));
        }
        for (const event of events) {
          if (!going) break;
          going = attempt(faults, budget, () => {
            const result = call(eventFn, simNow, event.name, event.dataJson);
            if (result.error) throw new CallFailed(result.error);
            try {
              return settle(direct.read(result.value));
            } finally {
              result.value.dispose();
            }
          });
        }
        if (going) {
          if (hasTick) going = attempt(faults, budget, () => callSettled(tickFn, simNow, dt));
          else callString(setNowFn, simNow);
        }
        const fuelUsed = Math.min(budget, spentBefore + (going ? meter.used() : 0));
        return { fuelUsed, faults };
      },
      setNow(simNow) {
        hostNow = simNow;
        lastNow = Number.NaN;
        housekeeping(() => callString(setNowFn, simNow));
      },
      broken: () => isBroken,
      dispose() {
        direct.dispose();
        for (const h of handles.splice(0)) if (h.alive) h.dispose();
        context?.dispose();
        runtime.dispose();
      },
    };

    function disposeFailure(error: unknown) {
      if (error instanceof CallFailed && error.handle.alive) error.handle.dispose();
    }
  } catch (error) {
    for (const h of handles) if (h.alive) h.dispose();
    context?.dispose();
    runtime.dispose();
    throw error;
  }
}

/** Whether `bytes[start, end)` holds the same bytes as `other`. */
function sameBytes(bytes: Uint8Array, start: number, end: number, other: Uint8Array): boolean {
  if (end - start !== other.length) return false;
  for (let i = 0; i < other.length; i++) if (bytes[start + i] !== other[i]) return false;
  return true;
}

/** A call into the sandbox failed; `handle` is the thrown value. */
class CallFailed extends Error {
  constructor(readonly handle: QuickJSHandle) {
    super("call failed");
  }
}

/** A script-caused failure detected by the host (not a value thrown in the sandbox). */
class ScriptFailure extends Error {}

/**
 * The engine itself failed (for example the host's native stack ran out
 * inside WebAssembly): the whole engine cell must be dropped.
 */
export class EngineFailure extends Error {
  override name = "EngineFailure";
  constructor(cause: unknown) {
    super(`engine failure: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * The host stopped a script's engine (a worker thread) because one call ran
 * past `watchdog_ms` without returning, even inside native code: every
 * sandbox in that engine is lost and starts again from its committed state.
 */
export class EngineStopped extends Error {
  override name = "EngineStopped";
  constructor(watchdogMs: number) {
    super(`ran longer than ${watchdogMs} ms of real time (watchdog_ms); its engine was stopped`);
  }
}

function isScriptFailure(error: unknown): boolean {
  return error instanceof CallFailed || error instanceof ScriptFailure;
}

import type { ScriptLanguage } from "../commands/command-args.js";
import type { ResolvedScriptConfig } from "../config/script-config.js";
import type { Principal } from "../policy/principal.js";
import { pythonEngineModule } from "../python/engine-module.js";
import { createPythonSandbox, startedPrelude } from "../python/python-sandbox.js";
import { CREATOR_TENANT, createEnginePool } from "./engine-pool.js";
import type { EnginePool } from "./engine-pool.js";
import type { EngineCell } from "./engine-cell.js";
import { EngineFailure, createSandbox } from "./sandbox.js";
import type { HandlerFault, ModuleSource, Sandbox, SandboxApi, ScriptEvent } from "./sandbox.js";

/** What the runtime gives the engines that run its scripts. */
export interface EngineSettings {
  config: ResolvedScriptConfig;
  /** How many scripts (at the game's memory limit) share one engine cell. */
  scriptsPerCell: number;
  /** The project's modules, read when a script loads. */
  modules: ModuleSource;
}

/** One script to load into a new sandbox. */
export interface LoadSpec {
  name: string;
  principal: Principal;
  source: string;
  language: ScriptLanguage;
  /** The committed state to adopt (a reload or a restore); undefined for a fresh load. */
  stateJson: string | undefined;
  seed: readonly [number, number, number, number];
  /** What `Date.now()` answers in the script at its load. */
  epochMs: number;
  api: SandboxApi | undefined;
  onConsole: ((level: string, text: string) => void) | undefined;
}

/** What one tick of one script did. */
export interface StepResult {
  fuelUsed: number;
  faults: HandlerFault[];
  /** The committed state after the tick (canonical JSON). */
  stateJson: string;
  /** A fault left the sandbox unusable: it must be loaded again from `stateJson`. */
  broken: boolean;
}

/** One sandbox's tick in {@link ScriptEngines.stepMany}. */
export interface StepRequest {
  id: number;
  budget: number;
}

/**
 * What {@link ScriptEngines.stepMany} ran: a result per sandbox, in order
 * (undefined for one whose result was lost with its stopped engine), and,
 * when the run ended on one that threw, the error (its request is the one
 * after the results).
 */
export interface StepBatch {
  results: (StepResult | undefined)[];
  failure?: unknown;
}

/**
 * ScriptEngines runs the runtime's sandboxes, each known by an id: in this
 * thread ({@link createLocalEngines}, Node and browsers), or in worker
 * threads the host can stop (`workerEngines` in `@playfield/script-runtime/node`).
 */
export interface ScriptEngines {
  /**
   * Loads a script into a new sandbox. Rejects with an `Error` whose
   * message says why it did not load, or an {@link EngineFailure} (then
   * see {@link lost}).
   */
  load(spec: LoadSpec): Promise<{ id: number; stateJson: string }>;
  /**
   * Runs one tick of the first sandboxes of `requests`, in order: as many
   * as run in one go (all of them in this thread; a worker's consecutive
   * ones), up to the first whose engine failed or was stopped (then see
   * {@link lost}). Never throws.
   */
  stepMany(requests: readonly StepRequest[], simNow: number, dt: number, events: readonly ScriptEvent[]): StepBatch;
  unload(id: number): void;
  /** Sandboxes whose engine failed or was stopped, each to be loaded again from its committed state (the list is cleared). */
  lost(): number[];
  dispose(): Promise<void>;
}

/** Makes the engines of one runtime. */
export type ScriptEnginesFactory = (settings: EngineSettings) => ScriptEngines;

interface Slot {
  sandbox: Sandbox;
  /** The engine cell of a JavaScript script (a Python script has an engine instance of its own). */
  cell: EngineCell | undefined;
  memoryLimit: number;
}

/** The in-thread engines, which can also make their engines ahead of the first load. */
export interface LocalEngines extends ScriptEngines {
  /** Makes what a first load of `language` needs (the first engine cell, or the started Python engine), so that load costs what any load does. */
  prepare(language: ScriptLanguage): Promise<void>;
}

/**
 * Runs every sandbox in this thread. The watchdog (`watchdog_ms`) then runs
 * between bytecodes only: it cannot stop one native step that has started
 * (docs/scripts.md, the watchdog).
 */
export function createLocalEngines({ config, scriptsPerCell, modules }: EngineSettings): LocalEngines {
  const slots = new Map<number, Slot>();
  let lostIds: number[] = [];
  let nextId = 1;
  let pool: Promise<EnginePool> | undefined;
  /** The pool once made (a JavaScript sandbox exists only after it is). */
  let made: EnginePool | undefined;
  const enginePool = async () => (made = await (pool ??= createEnginePool({ cellBytes: scriptsPerCell * config.memory_limit_bytes })));

  const open = async (spec: LoadSpec): Promise<Slot> => {
    const { name, principal, source, language, stateJson } = spec;
    const player = principal !== "creator";
    const memoryLimit = player ? config.player_memory_limit_bytes : config.memory_limit_bytes;
    if (language === "py") {
      const sandbox = createPythonSandbox({
        module: await pythonEngineModule(), name, memoryLimitBytes: memoryLimit, maxStateBytes: config.max_state_bytes,
        loadFuel: config.load_fuel, seed: spec.seed, epochMs: spec.epochMs, modules, onConsole: spec.onConsole, api: spec.api,
      });
      sandbox.load(source, stateJson);
      return { sandbox, cell: undefined, memoryLimit };
    }
    const engines = await enginePool();
    const alone = config.isolation === "script";
    const tenant = alone ? `script ${name}` : player ? `player ${principal.player}` : CREATOR_TENANT;
    const cell = await engines.acquire(memoryLimit, tenant, alone);
    let sandbox: Sandbox | undefined;
    try {
      sandbox = createSandbox({
        cell, counterOffset: engines.counterOffset, valueTags: engines.valueTags, name, memoryLimitBytes: memoryLimit,
        maxStackBytes: config.max_stack_bytes, maxStateBytes: config.max_state_bytes, watchdogMs: config.watchdog_ms,
        loadFuel: config.load_fuel, seed: spec.seed, epochMs: spec.epochMs, modules, onConsole: spec.onConsole, api: spec.api,
        bigInts: !player,
      });
      sandbox.load(source, stateJson);
      return { sandbox, cell, memoryLimit };
    } catch (error) {
      if (error instanceof EngineFailure) loseCell(cell);
      else sandbox?.dispose();
      engines.release(cell, memoryLimit);
      throw error;
    }
  };

  /** A WebAssembly trap or host stack overflow: nothing in that cell can be trusted, so all its scripts are lost. */
  const loseCell = (cell: EngineCell) => {
    cell.broken = true;
    for (const [id, slot] of slots) if (slot.cell === cell) lostIds.push(id);
  };

  const close = (slot: Slot) => {
    // A broken cell's module may be in any state: it is dropped whole, never called again.
    if (!slot.cell?.broken) slot.sandbox.dispose();
    if (slot.cell) made?.release(slot.cell, slot.memoryLimit);
  };

  const step = (id: number, simNow: number, dt: number, events: readonly ScriptEvent[], budget: number): StepResult => {
    const slot = slots.get(id);
    if (!slot) throw new EngineFailure(new Error(`no sandbox ${id}`));
    try {
      const outcome = slot.sandbox.step(simNow, dt, events, budget);
      return { fuelUsed: outcome.fuelUsed, faults: outcome.faults, stateJson: slot.sandbox.stateJson(), broken: slot.sandbox.broken() };
    } catch (error) {
      if (slot.cell) loseCell(slot.cell);
      else lostIds.push(id);
      throw error;
    }
  };

  return {
    async prepare(language) {
      if (language === "js") await enginePool();
      else startedPrelude(await pythonEngineModule());
    },
    async load(spec) {
      const slot = await open(spec);
      const id = nextId++;
      slots.set(id, slot);
      return { id, stateJson: slot.sandbox.stateJson() };
    },
    stepMany(requests, simNow, dt, events) {
      const results: StepResult[] = [];
      for (const { id, budget } of requests) {
        try {
          results.push(step(id, simNow, dt, events, budget));
        } catch (failure) {
          return { results, failure };
        }
      }
      return { results };
    },
    unload(id) {
      const slot = slots.get(id);
      if (!slot) return;
      slots.delete(id);
      close(slot);
    },
    lost() {
      const ids = lostIds.filter((id) => slots.has(id));
      lostIds = [];
      return ids;
    },
    async dispose() {
      for (const slot of slots.values()) close(slot);
      slots.clear();
      if (pool) await pool;
    },
  };
}

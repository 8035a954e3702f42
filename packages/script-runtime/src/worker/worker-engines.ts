import { Worker } from "node:worker_threads";
import type { ScriptEngines, ScriptEnginesFactory, StepResult } from "../engine/script-engines.js";
import { EngineFailure, EngineStopped } from "../engine/sandbox.js";
import type { HandlerFault, SandboxApi } from "../engine/sandbox.js";
import { Op, StepFlag, newMailboxMemory, openMailbox, wallNow } from "./mailbox.js";
import type { Letter, Mailbox } from "./mailbox.js";
import type { WireLoadSpec, WorkerData } from "./worker-wire.js";

/** Options of {@link workerEngines}. */
export interface WorkerEnginesOptions {
  /** How many worker threads share the scripts (default 2); one more is kept started, to replace a stopped one at once. */
  workers?: number;
}

/**
 * How long past `watchdog_ms` the host waits before it stops a worker: the
 * watchdog inside the worker stops interpreted code at `watchdog_ms` with
 * a plain fault (the sandbox kept), so the host stops only what that cannot,
 * a native step that does not return.
 */
export const STOP_MARGIN_MS = 200;
/** How long a worker may take to make an engine before a load (compiling it; no script code runs then). */
const PREPARE_MS = 60_000;

interface WorkerSlot {
  worker: Worker;
  toWorker: Mailbox;
  toHost: Mailbox;
  ready: Promise<void>;
  scripts: number;
  stopped: boolean;
}

/** A sandbox's place: its worker, its id there, and the host's side of it. */
interface Placed {
  slot: WorkerSlot;
  local: number;
  state: string;
  api: SandboxApi | undefined;
  onConsole: ((level: string, text: string) => void) | undefined;
}

const NO_FAULTS: HandlerFault[] = [];
const NO_TEXT = { id: 0, flags: 0, a: 0, b: 0, c: 0, text: "" };

/**
 * Engines in worker threads (Node): the scripts are shared among a few
 * workers, each running its own engines, and the host sends every load
 * and tick to the script's worker and waits for the answer. When one does
 * not come within `watchdog_ms` (plus {@link STOP_MARGIN_MS}), even inside
 * one native step, the host terminates that worker, puts a started spare
 * in its place, and the worker's scripts start again there from their
 * committed states; the script whose call ran over gets the watchdog's
 * fault. Scripts in other workers tick on.
 *
 * @example
 * const runtime = createScriptRuntime({ engines: workerEngines() });
 */
export function workerEngines(options: WorkerEnginesOptions = {}): ScriptEnginesFactory {
  const size = Math.max(1, options.workers ?? 2);
  return (settings): ScriptEngines => {
    const { config } = settings;
    const limitMs = config.watchdog_ms > 0 ? config.watchdog_ms + STOP_MARGIN_MS : Infinity;
    const data = { config, scriptsPerCell: settings.scriptsPerCell };
    const slots: WorkerSlot[] = [];
    let spare: WorkerSlot | undefined;
    const placed = new Map<number, Placed>();
    let lostIds: number[] = [];
    let nextId = 1;

    const spawn = (): WorkerSlot => {
      const toWorker = newMailboxMemory();
      const toHost = newMailboxMemory();
      const worker = startWorker({ toWorker, toHost, settings: data });
      // A runtime that was never disposed does not keep the process alive.
      worker.unref();
      const ready = new Promise<void>((resolve, reject) => {
        worker.once("message", () => resolve());
        worker.once("error", reject);
        worker.once("exit", (code) => reject(new Error(`the engine worker stopped (exit code ${code}) before it started`)));
      });
      ready.catch(() => undefined); // seen by the load that awaits it
      return { worker, toWorker: openMailbox(toWorker), toHost: openMailbox(toHost), ready, scripts: 0, stopped: false };
    };

    /** Terminates a worker that ran over: its sandboxes are lost, and a started spare takes its place. */
    const stop = (slot: WorkerSlot) => {
      slot.stopped = true;
      void slot.worker.terminate();
      for (const [id, p] of placed) if (p.slot === slot) lostIds.push(id);
      slots[slots.indexOf(slot)] = spare ?? spawn();
      spare = spawn();
    };

    /**
     * Sends a letter and answers the worker's imports and game calls until
     * its answer comes, or stops the worker. A load's time counts from the
     * worker's mark (its engine made), a tick's from the letter.
     */
    const converse = (slot: WorkerSlot, letter: Letter): Letter => {
      const sent = wallNow();
      slot.toWorker.send(letter);
      const deadline = () => {
        if (letter.op !== Op.load) return sent + limitMs;
        const marked = slot.toHost.marked();
        return marked >= sent ? marked + limitMs : sent + PREPARE_MS;
      };
      for (;;) {
        const answer = slot.toHost.receive(limitMs === Infinity ? Infinity : Math.max(0, deadline() - wallNow()));
        if (!answer) {
          if (wallNow() < deadline()) continue; // the engine was made meanwhile: the load's own time runs from there
          stop(slot);
          throw new EngineStopped(config.watchdog_ms);
        }
        if (answer.op === Op.call) {
          const [op, argsJson] = JSON.parse(answer.text) as [string, string];
          const api = placed.get(answer.id)?.api;
          const text = api ? api.call(op, argsJson, answer.a) : JSON.stringify({ e: ["TypeError", "this script has no game API"] });
          slot.toWorker.send({ ...NO_TEXT, op: Op.reply, text });
        } else if (answer.op === Op.module) {
          const source = settings.modules(answer.text);
          slot.toWorker.send({ ...NO_TEXT, op: Op.reply, flags: source === undefined ? 0 : 1, text: source ?? "" });
        } else {
          return answer;
        }
      }
    };

    const emit = (p: Placed, lines: [string, string][] | undefined) => {
      if (p.onConsole) for (const [level, text] of lines ?? []) p.onConsole(level, text);
    };

    /** Turns a worker's `fail` into the error the in-thread engines would throw. */
    const failure = (answer: Letter, p: Placed): Error => {
      const { message, engine, lost, console } = JSON.parse(answer.text) as { message: string; engine: boolean; lost: number[]; console: [string, string][] };
      emit(p, console);
      lostIds.push(...lost);
      return engine ? new EngineFailure(new Error(message)) : new Error(message);
    };

    return {
      async load(spec) {
        if (slots.length === 0) {
          for (let i = 0; i < size; i++) slots.push(spawn());
          spare = spawn();
        }
        const slot = slots.reduce((best, s) => (s.scripts < best.scripts ? s : best));
        await slot.ready;
        const id = nextId++;
        const p: Placed = { slot, local: -1, state: "{}", api: spec.api, onConsole: spec.onConsole };
        placed.set(id, p);
        const { api, onConsole, ...rest } = spec;
        const wire: WireLoadSpec = { ...rest, apiSource: api?.source, console: onConsole !== undefined };
        try {
          const answer = converse(slot, { ...NO_TEXT, op: Op.load, id, text: JSON.stringify(wire) });
          if (answer.op === Op.fail) throw failure(answer, p);
          const { stateJson, console } = JSON.parse(answer.text) as { stateJson: string; console: [string, string][] };
          emit(p, console);
          p.local = answer.id;
          p.state = stateJson;
          slot.scripts += 1;
          return { id, stateJson };
        } catch (error) {
          placed.delete(id);
          throw error;
        }
      },
      step(id, simNow, dt, events, budget): StepResult {
        const p = placed.get(id);
        if (!p || p.slot.stopped) throw new EngineFailure(new Error(`no sandbox ${id}`));
        const answer = converse(p.slot, { op: Op.step, id: p.local, flags: 0, a: simNow, b: dt, c: budget, text: events.length === 0 ? "" : JSON.stringify(events) });
        if (answer.op === Op.fail) throw failure(answer, p);
        let faults = NO_FAULTS;
        if (answer.flags & StepFlag.extra) {
          const extra = JSON.parse(answer.text) as { faults: HandlerFault[]; console: [string, string][]; state?: string };
          faults = extra.faults;
          emit(p, extra.console);
          if (extra.state !== undefined) p.state = extra.state;
        } else if (answer.flags & StepFlag.stateChanged) {
          p.state = answer.text;
        }
        return { fuelUsed: answer.a, faults, stateJson: p.state, broken: (answer.flags & StepFlag.broken) !== 0 };
      },
      unload(id) {
        const p = placed.get(id);
        if (!p) return;
        placed.delete(id);
        if (p.slot.stopped) return;
        p.slot.scripts -= 1;
        converse(p.slot, { ...NO_TEXT, op: Op.unload, id: p.local });
      },
      lost() {
        const ids = lostIds.filter((id) => placed.has(id));
        lostIds = [];
        return ids;
      },
      async dispose() {
        const all = spare ? [...slots, spare] : slots;
        placed.clear();
        await Promise.all(all.map((slot) => slot.worker.terminate()));
      },
    };
  };
}

/**
 * Starts an engine worker. Built, it runs `engine-worker.js` beside this
 * file; in a checkout (this file is TypeScript source), it runs the
 * source through the same hooks as the command line does
 * (`scripts/source/run-source.js`: tsx and the "@playfield/source" condition).
 */
function startWorker(workerData: WorkerData): Worker {
  const here = import.meta.url;
  if (!here.endsWith(".ts")) return new Worker(new URL("./engine-worker.js", here), { workerData });
  const runSource = new URL("../../../../scripts/source/run-source.js", here).href;
  const entry = new URL("./engine-worker.ts", here).href;
  return new Worker(`import(${JSON.stringify(runSource)}).then((m) => m.runSource(${JSON.stringify(entry)}))`, { eval: true, workerData });
}

import { Worker } from "node:worker_threads";
import type { LoadSpec, ScriptEngines, ScriptEnginesFactory, StepBatch, StepResult } from "../engine/script-engines.js";
import { EngineFailure, EngineStopped } from "../engine/sandbox.js";
import type { HandlerFault, SandboxApi } from "../engine/sandbox.js";
import { Op, newMailboxMemory, openMailbox, wallNow } from "./mailbox.js";
import type { Letter, Mailbox, WireFailure, WireResult } from "./mailbox.js";
import type { WireLoadSpec, WorkerData } from "./worker-wire.js";

/** Options of {@link workerEngines}. */
export interface WorkerEnginesOptions {
  /**
   * How many worker threads share the scripts (default 2): the creator's
   * scripts run in the first, each player's in one of the others (a
   * player's scripts stay together). One more is kept started, to replace
   * a stopped one at once.
   */
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
 * workers, each running its own engines, and the host sends every load,
 * and each tick of a run of one worker's scripts (in load order), to the
 * worker and waits for the answer. When one does
 * not come within `watchdog_ms` (plus {@link STOP_MARGIN_MS}), even inside
 * one native step, the host terminates that worker, puts a started spare
 * in its place, and the worker's scripts start again there from their
 * committed states (those that had ticked in that run lose that tick);
 * the script whose call ran over gets the watchdog's fault. Scripts in
 * other workers tick on.
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
    /** Each tenant's worker (its index in slots): the creator's is the first, players' the others, least-loaded first. */
    const homes = new Map<string, number>();
    const home = (principal: LoadSpec["principal"]): WorkerSlot => {
      const tenant = principal === "creator" ? "creator" : `player ${principal.player}`;
      let index = homes.get(tenant);
      if (index === undefined) {
        index = 0;
        for (let i = 1; i < slots.length; i++) if (index === 0 || slots[i]!.scripts < slots[index]!.scripts) index = i;
        if (tenant === "creator") index = 0;
        homes.set(tenant, index);
      }
      return slots[index]!;
    };

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
     * its answer comes, or stops the worker.
     */
    const converse = (slot: WorkerSlot, letter: Letter): Letter => {
      const sent = wallNow();
      slot.toWorker.send(letter);
      // Each tick of a run, and a load once its engine is made, counts from the worker's mark.
      const deadline = () => {
        const marked = slot.toHost.marked();
        if (marked >= sent) return marked + limitMs;
        return sent + (letter.op === Op.load ? PREPARE_MS : limitMs);
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

    /** Turns a worker's failure into the error the in-thread engines would throw. */
    const failure = ({ message, engine, lost, console }: WireFailure, p: Placed | undefined): Error => {
      if (p) emit(p, console);
      lostIds.push(...lost);
      return engine ? new EngineFailure(new Error(message)) : new Error(message);
    };

    return {
      async load(spec) {
        if (slots.length === 0) {
          for (let i = 0; i < size; i++) slots.push(spawn());
          spare = spawn();
        }
        const slot = home(spec.principal);
        await slot.ready;
        const id = nextId++;
        const p: Placed = { slot, local: -1, state: "{}", api: spec.api, onConsole: spec.onConsole };
        placed.set(id, p);
        const { api, onConsole, ...rest } = spec;
        const wire: WireLoadSpec = { ...rest, apiSource: api?.source, console: onConsole !== undefined };
        try {
          const answer = converse(slot, { ...NO_TEXT, op: Op.load, id, text: JSON.stringify(wire) });
          if (answer.op === Op.fail) throw failure(JSON.parse(answer.text) as WireFailure, p);
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
      stepMany(requests, simNow, dt, events): StepBatch {
        const first = placed.get(requests[0]?.id ?? -1);
        if (!first || first.slot.stopped) return { results: [], failure: new EngineFailure(new Error(`no sandbox ${requests[0]?.id}`)) };
        // The consecutive sandboxes of one worker tick in one conversation.
        const { slot } = first;
        const run: Placed[] = [];
        for (const { id } of requests) {
          const p = placed.get(id);
          if (p?.slot !== slot) break;
          run.push(p);
        }
        const text = JSON.stringify({ ids: run.map((p) => p.local), budgets: requests.slice(0, run.length).map((r) => r.budget), events });
        slot.toHost.progress(0);
        let answer: Letter;
        try {
          answer = converse(slot, { ...NO_TEXT, op: Op.step, a: simNow, b: dt, text });
        } catch (error) {
          // The worker was stopped: the results of the ticks it ran before are lost with it.
          return { results: new Array<undefined>(slot.toHost.progressed()).fill(undefined), failure: error };
        }
        const wire = JSON.parse(answer.text) as { results: WireResult[]; failure?: WireFailure };
        const results = wire.results.map(([fuelUsed, broken, state, faults, lines], i): StepResult => {
          const p = run[i]!;
          emit(p, lines ?? undefined);
          if (state !== null) p.state = state;
          return { fuelUsed, faults: faults ?? NO_FAULTS, stateJson: p.state, broken };
        });
        return wire.failure ? { results, failure: failure(wire.failure, run[results.length]) } : { results };
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

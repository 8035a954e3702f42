/**
 * The entry of an engine worker thread: it runs sandboxes in this thread's
 * own engines (as the in-thread runtime does) and answers the host's
 * letters; a script's imports and calls into the game are letters back to
 * the host, answered while it waits. The host terminates the thread when a
 * call does not answer within the watchdog.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createLocalEngines } from "../engine/script-engines.js";
import type { LoadSpec } from "../engine/script-engines.js";
import { EngineFailure } from "../engine/sandbox.js";
import type { ScriptEvent } from "../engine/sandbox.js";
import { Op, openMailbox } from "./mailbox.js";
import type { Letter, WireFailure, WireResult } from "./mailbox.js";
import type { WorkerData, WireLoadSpec } from "./worker-wire.js";

const data = workerData as WorkerData;
const inbox = openMailbox(data.toWorker);
const outbox = openMailbox(data.toHost);
const NO_TEXT = { id: 0, flags: 0, a: 0, b: 0, c: 0, text: "" };

/** Asks the host and waits for its reply. */
const ask = (letter: Partial<Letter> & { op: number }): Letter => {
  outbox.send({ ...NO_TEXT, ...letter });
  return inbox.receive(Infinity)!;
};

/** Console lines of the operation under way, sent with its answer. */
let lines: [string, string][] = [];
const engines = createLocalEngines({
  ...data.settings,
  modules: (path) => {
    const reply = ask({ op: Op.module, text: path });
    return reply.flags === 1 ? reply.text : undefined;
  },
});
/** The host's ids by this thread's, to name lost sandboxes in the host's terms. */
const hostIds = new Map<number, number>();
/** The state last sent for each sandbox: an unchanged state is not sent again. */
const sent = new Map<number, string>();

/** Describes a failure for the host: an engine failure as its cause (the host makes the same EngineFailure of it). */
const failure = (error: unknown): WireFailure => {
  const lost = engines.lost().map((id) => hostIds.get(id) ?? -1);
  const cause = error instanceof EngineFailure ? error.cause : error;
  const message = cause instanceof Error ? cause.message : String(cause);
  return { message, engine: error instanceof EngineFailure, lost, console: lines };
};
const fail = (error: unknown) => {
  outbox.send({ ...NO_TEXT, op: Op.fail, text: JSON.stringify(failure(error)) });
};

const load = async (letter: Letter) => {
  const wire = JSON.parse(letter.text) as WireLoadSpec;
  const hostId = letter.id;
  const spec: LoadSpec = {
    ...wire,
    api: wire.apiSource === undefined ? undefined : {
      source: wire.apiSource,
      call: (op, argsJson, nowMs) => ask({ op: Op.call, id: hostId, a: nowMs, text: JSON.stringify([op, argsJson]) }).text,
    },
    onConsole: wire.console ? (level, text) => { lines.push([level, text]); } : undefined,
  };
  // The engine is made first, and the host's watchdog counts from the mark: a load's time is the script's own.
  await engines.prepare(wire.language);
  outbox.mark();
  const { id, stateJson } = await engines.load(spec);
  hostIds.set(id, hostId);
  sent.set(id, stateJson);
  outbox.send({ ...NO_TEXT, op: Op.done, id, text: JSON.stringify({ stateJson, console: lines }) });
};

/** Runs a run of ticks, marking the time and the index of each, so the host knows which one ran over. */
const step = (letter: Letter) => {
  const { ids, budgets, events } = JSON.parse(letter.text) as { ids: number[]; budgets: number[]; events: ScriptEvent[] };
  const results: WireResult[] = [];
  let failed: WireFailure | undefined;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    outbox.progress(i);
    outbox.mark();
    lines = [];
    const batch = engines.stepMany([{ id, budget: budgets[i]! }], letter.a, letter.b, events);
    const result = batch.results[0];
    if (!result) {
      failed = failure(batch.failure);
      break;
    }
    const changed = sent.get(id) !== result.stateJson;
    if (changed) sent.set(id, result.stateJson);
    results.push([result.fuelUsed, result.broken, changed ? result.stateJson : null, result.faults.length > 0 ? result.faults : null, lines.length > 0 ? lines : null]);
  }
  outbox.send({ ...NO_TEXT, op: Op.done, text: JSON.stringify(failed ? { results, failure: failed } : { results }) });
};

parentPort!.postMessage("ready");
for (;;) {
  const letter = inbox.receive(Infinity)!;
  lines = [];
  try {
    if (letter.op === Op.load) await load(letter);
    else if (letter.op === Op.step) step(letter);
    else if (letter.op === Op.unload) {
      engines.unload(letter.id);
      hostIds.delete(letter.id);
      sent.delete(letter.id);
      outbox.send({ ...NO_TEXT, op: Op.done });
    } else {
      fail(new Error(`unexpected letter ${letter.op}`));
    }
  } catch (error) {
    fail(error);
  }
}

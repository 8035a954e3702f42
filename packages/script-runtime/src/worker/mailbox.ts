import { Buffer } from "node:buffer";

/** One message between the host and an engine worker: a code, an id, flags, three numbers and a text. */
export interface Letter {
  op: number;
  id: number;
  flags: number;
  a: number;
  b: number;
  c: number;
  text: string;
}

/**
 * Int32 words: the sequence number the receiver waits on, then the fields;
 * Float64 numbers from byte 32 (the last, at byte 56, a time the sender
 * marks); the text from byte 64.
 */
const SEQ = 0;
const OP = 1;
const ID = 2;
const FLAGS = 3;
const LENGTH = 4;
const PROGRESS = 5;
const NUMBERS = 4; // Float64 index (byte 32)
const MARK = 7; // Float64 index (byte 56)
const TEXT = 64;
const FIRST_BYTES = TEXT + 64 * 1024;
/** The largest text: a state at the largest max_state_bytes (64 MiB) written as UTF-8, with room to spare. */
const MAX_BYTES = TEXT + 256 * 1024 * 1024;
/**
 * How long a receiver polls before it sleeps: the other side's answer to a
 * small tick comes within microseconds, and waking a sleeping thread costs
 * ~30 µs (measured on 2 cores), more than a small tick itself.
 */
const SPIN_MS = 0.05;

/** Memory for one direction of a conversation (share it with the worker through `workerData`). */
export function newMailboxMemory(): SharedArrayBuffer {
  return new (SharedArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => SharedArrayBuffer)(FIRST_BYTES, { maxByteLength: MAX_BYTES });
}

/**
 * Mailbox is one direction of a strictly alternating conversation between
 * two threads over shared memory: one side sends, the other receives,
 * blocking (Atomics.wait), so a thread can wait for an answer inside a
 * synchronous call, and the host can give up on a worker that does not
 * answer in time.
 */
export interface Mailbox {
  send(letter: Letter): void;
  /** The next letter, or undefined when `timeoutMs` passed first (Infinity: wait for ever). */
  receive(timeoutMs: number): Letter | undefined;
  /** Notes the time now (see {@link wallNow}), for the other side to read while it waits. */
  mark(): void;
  /** The time last marked, or 0. */
  marked(): number;
  /** Notes how far the sender got (which of a run of ticks it is on), for the other side to read. */
  progress(index: number): void;
  progressed(): number;
}

/** Milliseconds since the epoch, to the microsecond: the same clock in every thread of the process. */
export const wallNow = () => performance.timeOrigin + performance.now();

export function openMailbox(memory: SharedArrayBuffer): Mailbox {
  const words = new Int32Array(memory, 0, TEXT / 4);
  const numbers = new Float64Array(memory, 0, TEXT / 8);
  let seen = 0;
  return {
    send({ op, id, flags, a, b, c, text }) {
      const length = text.length === 0 ? 0 : Buffer.byteLength(text, "utf8");
      if (TEXT + length > memory.byteLength) {
        if (TEXT + length > MAX_BYTES) throw new RangeError(`a message of ${length} bytes is too long for an engine worker`);
        (memory as unknown as { grow(length: number): void }).grow(Math.min(MAX_BYTES, Math.max(TEXT + length, memory.byteLength * 2)));
      }
      if (length > 0) Buffer.from(memory, TEXT, length).write(text, 0, "utf8");
      words[OP] = op;
      words[ID] = id;
      words[FLAGS] = flags;
      words[LENGTH] = length;
      numbers[NUMBERS] = a;
      numbers[NUMBERS + 1] = b;
      numbers[NUMBERS + 2] = c;
      Atomics.add(words, SEQ, 1);
      Atomics.notify(words, SEQ);
    },
    receive(timeoutMs) {
      const spinUntil = performance.now() + Math.min(SPIN_MS, timeoutMs);
      let count = 0;
      while (Atomics.load(words, SEQ) === seen) {
        if ((++count & 63) !== 0 || performance.now() < spinUntil) continue;
        const left = timeoutMs === Infinity ? Infinity : timeoutMs - SPIN_MS;
        if (Atomics.wait(words, SEQ, seen, Math.max(0, left)) === "timed-out") return undefined;
      }
      seen = Atomics.load(words, SEQ);
      const length = words[LENGTH]!;
      return {
        op: words[OP]!,
        id: words[ID]!,
        flags: words[FLAGS]!,
        a: numbers[NUMBERS]!,
        b: numbers[NUMBERS + 1]!,
        c: numbers[NUMBERS + 2]!,
        text: length === 0 ? "" : Buffer.from(memory, TEXT, length).toString("utf8"),
      };
    },
    mark() {
      numbers[MARK] = wallNow();
    },
    marked: () => numbers[MARK]!,
    progress(index) {
      Atomics.store(words, PROGRESS, index);
    },
    progressed: () => Atomics.load(words, PROGRESS),
  };
}

/** The letters' codes. */
export const Op = {
  /** host → worker: load a script (`text`: the spec as JSON, `id`: the host's id for it). */
  load: 1,
  /** host → worker: one tick of a run of sandboxes (`a` simNow, `b` dt, `text` JSON `{ids, budgets, events}`); the answer's text is JSON `{results, failure?}`. */
  step: 2,
  unload: 3,
  /** host → worker: the answer to a call or a module read. */
  reply: 4,
  /** worker → host: the operation finished (see the step's flags). */
  done: 5,
  /** worker → host: the operation failed (`text`: JSON `{message, engine, lost}`). */
  fail: 6,
  /** worker → host: a script calls into the game (`a`: the host's time of the call, `text`: JSON `[op, argsJson]`). */
  call: 7,
  /** worker → host: a script imports a module (`text`: its path); the reply's flags say whether it was found. */
  module: 8,
} as const;

/** One sandbox's tick as a step's answer lists it: fuel used, broken, the state when it changed, faults, console lines. */
export type WireResult = [number, boolean, string | null, { handler: string; reason: string }[] | null, [string, string][] | null];

/** Why an operation failed, as a worker sends it. */
export interface WireFailure {
  message: string;
  /** An engine failure (the host makes an EngineFailure of it) rather than a script that did not load. */
  engine: boolean;
  /** The host's ids of the sandboxes lost with it. */
  lost: number[];
  console: [string, string][];
}

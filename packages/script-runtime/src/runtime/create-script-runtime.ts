import { createCommandRegistry } from "../commands/command-registry.js";
import type { CommandRegistry } from "../commands/command-registry.js";
import { scriptCommands } from "../commands/script-commands.js";
import { resolveScriptConfig } from "../config/script-config.js";
import type { ResolvedScriptConfig } from "../config/script-config.js";
import { createLocalEngines } from "../engine/script-engines.js";
import type { ScriptEngines, ScriptEnginesFactory } from "../engine/script-engines.js";
import { EngineFailure, EngineStopped } from "../engine/sandbox.js";
import type { ModuleSource, ScriptEvent } from "../engine/sandbox.js";
import { ErrorCode, ScriptRuntimeError } from "../errors.js";
import type { ErrorJson } from "../errors.js";
import { kindCommands } from "../commands/kind-commands.js";
import type { GameKinds } from "../kinds/game-kinds.js";
import { moderateSource } from "../policy/moderation.js";
import type { ModerationHook, ModerationVerdict } from "../policy/moderation.js";
import { playersRefusal } from "../policy/players-setting.js";
import { describePrincipal, samePrincipal } from "../policy/principal.js";
import type { Principal } from "../policy/principal.js";
import { GENESIS_CHAIN, nextChain, scriptSeed, stateHash } from "../state/state-hash.js";
import { boundText } from "./bounded-text.js";
import { createScriptLog } from "./script-log.js";
import type { ScriptLanguage } from "../commands/command-args.js";

/** Options of {@link createScriptRuntime}. */
export interface ScriptRuntimeOptions {
  /** The script configuration (see `ScriptConfig`); fields that do not fit are logged and replaced by defaults. */
  config?: unknown;
  /** Seeds every script's `Math.random` (with its name and load tick). Default 0. */
  seed?: number;
  /** What `Date.now()` answers in scripts at sim_ms 0. Default 0 (1970-01-01T00:00:00Z). */
  epochMs?: number;
  /** The project's script modules, by path (`lib/math.js`), for `import`. */
  modules?: ModuleSource | Readonly<Record<string, string>>;
  /** An extra moderation check for players' scripts. */
  moderate?: ModerationHook;
  /** Where scripts' `console.*` lines go (default: nowhere). */
  onConsole?: (script: string, level: string, text: string) => void;
  /** How many scripts (at the game's memory limit) share one engine cell. Default 32. */
  scriptsPerCell?: number;
  /** The kinds the embedding game exposes to scripts (see `createGameKinds`); default none. */
  kinds?: GameKinds;
  /**
   * Where the scripts' engines run: in this thread (the default, in Node and
   * browsers), or `workerEngines()` from `@playfield/script-runtime/node`:
   * worker threads the host stops when a tick runs past `watchdog_ms`, even
   * inside one native step.
   */
  engines?: ScriptEnginesFactory;
}

/** One element of `scripts` in the `script.list` result. */
export interface ScriptEntry {
  name: string;
  principal: Principal;
  paused: boolean;
  faults: number;
  last_fault: string | null;
  fuel_used: number;
  fuel_per_tick: number;
  state_hash: string;
}

/** The `script.list` result. */
export interface ScriptList {
  tick: number;
  sim_ms: number;
  chain: string;
  scripts: ScriptEntry[];
  log: string[];
}

/** The answer envelope of {@link ScriptRuntime.dispatch} (what the command line writes). */
export type CommandOutcome = { ok: true; result: unknown } | { ok: false; error: ErrorJson };

/** What the runtime's commands act on (the context every command receives). */
export interface ScriptHost {
  readonly config: ResolvedScriptConfig;
  /** The game's kinds, when it exposes any. */
  readonly kinds: GameKinds | undefined;
  queueLoad(request: { name: string; source: string; language: ScriptLanguage; principal: Principal; owner: boolean; friend: boolean }): { queued: string; applies: "next fixed tick" };
  queueControl(kind: "pause" | "resume" | "unload", name: string): { queued: string };
  queueEvent(event: string, data: unknown): { queued: string };
  list(): Promise<ScriptList>;
  /** Adds a line to the `script.list` log at the current tick (for editor commands: manifest problems, did-not-load lines). */
  log(text: string): void;
  step(ticks: number): Promise<{ tick: number; sim_ms: number; chain: string }>;
}

/**
 * ScriptRuntime runs scripts in sandboxes on fixed ticks of simulated time
 * and answers the `script.*` commands. Every command is reachable through
 * `run` (or `dispatch`, which never throws).
 */
export interface ScriptRuntime {
  /** Runs a command; rejects with a {@link ScriptRuntimeError} (`toJSON()` → `{code, message}`). */
  run(command: string, args?: unknown): Promise<unknown>;
  /** Runs a command and answers `{ok, result}` or `{ok, error}`. */
  dispatch(command: string, args?: unknown): Promise<CommandOutcome>;
  /** Applies the queue and advances `ticks` fixed ticks, now. */
  step(ticks?: number): Promise<void>;
  /** Queues an event for scripts' `on` handlers (applies on the next tick). */
  emit(event: string, data?: unknown): void;
  /** Starts ticking in real time (every `tick_ms`). */
  start(): void;
  stop(): void;
  /** The command registry, to which later commands are added. */
  readonly commands: CommandRegistry<ScriptHost>;
  readonly config: ResolvedScriptConfig;
  dispose(): Promise<void>;
}

interface Entry {
  name: string;
  principal: Principal;
  source: string;
  language: ScriptLanguage;
  paused: boolean;
  faults: number;
  lastFault: string | null;
  fuelUsed: number;
  fuelPerTick: number;
  hashedJson: string;
  stateHash: string;
  /** The script's sandbox in the engines. */
  id: number;
  /** The state after its last successful handler call: what a restarted sandbox starts from. */
  committed: string;
}

type Queued =
  | { kind: "load"; name: string; source: string; language: ScriptLanguage; principal: Principal; verdict: Promise<Refusal | undefined> }
  | { kind: "pause" | "resume" | "unload"; name: string }
  | { kind: "event"; event: ScriptEvent };

interface Refusal { kind: "refused" | "moderation refused"; reason: string }

/**
 * Creates a script runtime. Nothing runs until a tick: call `step` (manual
 * ticks) or `start` (real time).
 *
 * @example
 * const runtime = createScriptRuntime({ config: { tick_ms: 50 } });
 * await runtime.run("script.load", { name: "counter", source: "export default { onTick() { this.state.n = (this.state.n ?? 0) + 1 } }" });
 * await runtime.step(3);
 * const list = await runtime.run("script.list");
 */
export function createScriptRuntime(options: ScriptRuntimeOptions = {}): ScriptRuntime {
  const { config, problems } = resolveScriptConfig(options.config);
  const seed = options.seed ?? 0;
  const epochMs = options.epochMs ?? 0;
  const modules = toModuleSource(options.modules);
  const scriptsPerCell = options.scriptsPerCell ?? 32;
  const log = createScriptLog();
  for (const problem of problems) log.add(0, `manifest problem: ${problem}`);
  for (const problem of options.kinds?.validate(config) ?? []) log.add(0, `manifest problem: ${problem}`);

  const entries = new Map<string, Entry>();
  let queue: Queued[] = [];
  let tick = 0;
  let simMs = 0;
  let chain = GENESIS_CHAIN;
  let engines: ScriptEngines | undefined;
  let busy: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setInterval> | undefined;
  let ticking = false;
  let disposed = false;

  const scriptEngines = () => (engines ??= (options.engines ?? createLocalEngines)({ config, scriptsPerCell, modules }));
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const next = busy.then(work);
    busy = next.catch(() => undefined);
    return next;
  };

  const moderate = async (name: string, source: string, language: ScriptLanguage, principal: Principal, claims: { owner: boolean; friend: boolean }): Promise<Refusal | undefined> => {
    if (principal === "creator") return undefined;
    const refused = playersRefusal(config.players, { roles: principal.roles, owner: claims.owner, friend: claims.friend });
    if (refused) return { kind: "refused", reason: refused };
    let verdict: ModerationVerdict = moderateSource(source, { maxSourceBytes: config.player_max_source_bytes, deny: config.deny, forbid: config.forbid, noBigInt: language === "js" });
    if (verdict.ok && options.moderate) {
      try {
        verdict = await options.moderate({ name, source, principal });
      } catch (error) {
        verdict = { ok: false, reason: `moderation check failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    }
    return verdict.ok ? undefined : { kind: "moderation refused", reason: verdict.reason };
  };

  const newSandbox = (name: string, principal: Principal, source: string, language: ScriptLanguage, stateJson: string | undefined, loadTick: number) =>
    scriptEngines().load({
      name, principal, source, language, stateJson,
      seed: scriptSeed(seed, name, loadTick),
      epochMs: epochMs + simMs,
      api: options.kinds?.sandboxApi({ name, principal, language }, config),
      onConsole: options.onConsole ? (level: string, text: string) => options.onConsole?.(name, level, boundText(text)) : undefined,
    });

  const retire = (entry: Entry) => {
    scriptEngines().unload(entry.id);
  };

  const applyLoad = async (command: Extract<Queued, { kind: "load" }>, n: number) => {
    const { name, source, language, principal } = command;
    const who = principal === "creator" ? "" : ` from ${describePrincipal(principal)}`;
    const refusal = await command.verdict;
    if (refusal) {
      log.add(n, `${refusal.kind} ${name}${who}: ${refusal.reason}`);
      return;
    }
    const existing = entries.get(name);
    if (existing && !samePrincipal(existing.principal, principal)) {
      log.add(n, `refused ${name}${who}: the name is taken by ${describePrincipal(existing.principal)}`);
      return;
    }
    const bytes = new TextEncoder().encode(source).length;
    if (principal === "creator" && bytes > config.max_source_bytes) {
      log.add(n, `${name} did not load: source is ${bytes} bytes, over max_source_bytes (${config.max_source_bytes})`);
      return;
    }
    let made: Awaited<ReturnType<typeof newSandbox>>;
    try {
      made = await newSandbox(name, principal, source, language, existing?.committed, n);
    } catch (error) {
      log.add(n, `${name} did not load: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof EngineStopped) await engineFailed(n, "its engine was stopped by the watchdog");
      else if (error instanceof EngineFailure) await engineFailed(n);
      return;
    }
    const player = principal !== "creator";
    if (existing) {
      retire(existing);
      Object.assign(existing, { source, language, principal, id: made.id, committed: made.stateJson });
      log.add(n, `reloaded ${name}${who} (state kept)`);
      return;
    }
    const json = made.stateJson;
    entries.set(name, {
      name, principal, source, language, paused: false, faults: 0, lastFault: null, fuelUsed: 0,
      fuelPerTick: player ? config.player_fuel_per_tick : config.fuel_per_tick,
      hashedJson: json, stateHash: stateHash(json), id: made.id, committed: json,
    });
    log.add(n, `loaded ${name}${who}`);
  };

  const applyControl = async (kind: "pause" | "resume" | "unload", name: string, n: number) => {
    const entry = entries.get(name);
    if (!entry) {
      log.add(n, `${kind} ${name}: not loaded`);
      return;
    }
    if (kind === "unload") {
      entries.delete(name);
      retire(entry);
      log.add(n, `unloaded ${name}`);
    } else if (kind === "pause") {
      log.add(n, entry.paused ? `${name} is already paused` : `paused ${name}`);
      entry.paused = true;
    } else {
      log.add(n, entry.paused ? `resumed ${name}` : `${name} is already running`);
      entry.paused = false;
    }
  };

  /** Rebuilds a sandbox a fault left unusable, from its source and committed state. */
  const rebuild = async (entry: Entry, n: number, why: string) => {
    retire(entry);
    try {
      const made = await newSandbox(entry.name, entry.principal, entry.source, entry.language, entry.committed, n);
      Object.assign(entry, { id: made.id, committed: made.stateJson });
      log.add(n, `restarted ${entry.name}: ${why}`);
    } catch (error) {
      entries.delete(entry.name);
      log.add(n, `unloaded ${entry.name}: ${why}, and it did not load again: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  /**
   * An engine failed (a WebAssembly trap, the host's stack running out
   * inside it) or was stopped by the watchdog: nothing in it can be trusted,
   * so its scripts move to a new one, from their committed states.
   */
  const engineFailed = async (n: number, why = "its engine cell failed") => {
    const lost = new Set(scriptEngines().lost());
    for (const other of [...entries.values()]) {
      if (lost.has(other.id)) await rebuild(other, n, why);
    }
  };

  const tickOnce = async () => {
    const n = tick + 1;
    const commands = queue;
    queue = [];
    const events: ScriptEvent[] = [];
    for (const command of commands) {
      if (command.kind === "event") events.push(command.event);
      else if (command.kind === "load") await applyLoad(command, n);
      else await applyControl(command.kind, command.name, n);
    }
    tick = n;
    simMs += config.tick_ms;
    options.kinds?.tick(n, simMs, config.tick_ms);
    const simNow = epochMs + simMs;
    const running: Entry[] = [];
    for (const entry of entries.values()) {
      if (entry.paused) entry.fuelUsed = 0;
      else running.push(entry);
    }
    // The engines run as many of the scripts as they can in one go (in load order), up to one that failed.
    let next = 0;
    while (next < running.length) {
      const rest = running.slice(next).filter((e) => entries.get(e.name) === e);
      if (rest.length === 0) break;
      next = running.indexOf(rest[0]!);
      const batch = scriptEngines().stepMany(rest.map((e) => ({ id: e.id, budget: e.fuelPerTick })), simNow, config.tick_ms, events);
      for (const outcome of batch.results) {
        const entry = running[next++]!;
        if (!outcome) continue; // ran in an engine that was stopped: it restarts from its committed state
        entry.fuelUsed = outcome.fuelUsed;
        entry.committed = outcome.stateJson;
        for (const fault of outcome.faults) {
          entry.faults += 1;
          entry.lastFault = boundText(`${fault.handler}: ${fault.reason}`);
        }
        if (outcome.broken) await rebuild(entry, n, "its state could not be restored after a fault");
      }
      if (batch.failure === undefined) continue;
      const entry = running[next++]!;
      const error = batch.failure;
      const stopped = error instanceof EngineStopped;
      entry.faults += 1;
      if (stopped) entry.fuelUsed = entry.fuelPerTick;
      entry.lastFault = boundText(`onTick: ${error instanceof Error ? error.message : String(error)}`);
      await engineFailed(n, stopped ? "its engine was stopped by the watchdog" : entry.language === "py" ? "its engine failed" : "its engine cell failed");
    }
    const hashes: string[] = [];
    for (const entry of entries.values()) {
      const json = entry.committed;
      if (json !== entry.hashedJson) {
        entry.hashedJson = json;
        entry.stateHash = stateHash(json);
      }
      hashes.push(entry.stateHash);
    }
    chain = nextChain(chain, hashes);
  };

  const listNow = (): ScriptList => ({
    tick,
    sim_ms: simMs,
    chain,
    scripts: [...entries.values()].map((e) => ({
      name: e.name,
      principal: e.principal === "creator" ? "creator" : { player: e.principal.player, roles: [...e.principal.roles] },
      paused: e.paused,
      faults: e.faults,
      last_fault: e.lastFault,
      fuel_used: e.fuelUsed,
      fuel_per_tick: e.fuelPerTick,
      state_hash: e.stateHash,
    })),
    log: log.lines(),
  });

  const assertLive = () => {
    if (disposed) throw new ScriptRuntimeError(ErrorCode.FailedPrecondition, "the script runtime is disposed");
  };
  const knownName = (name: string) => entries.has(name) || queue.some((q) => q.kind === "load" && q.name === name);

  const host: ScriptHost = {
    config,
    kinds: options.kinds,
    queueLoad({ name, source, language, principal, owner, friend }) {
      assertLive();
      queue.push({ kind: "load", name, source, language, principal, verdict: moderate(name, source, language, principal, { owner, friend }) });
      return { queued: name, applies: "next fixed tick" };
    },
    queueControl(kind, name) {
      assertLive();
      if (!knownName(name)) throw new ScriptRuntimeError(ErrorCode.NotFound, `no script named ${name} is loaded or queued to load`);
      queue.push({ kind, name });
      return { queued: name };
    },
    queueEvent(event, data) {
      assertLive();
      queue.push({ kind: "event", event: { name: event, dataJson: JSON.stringify(data ?? null) } });
      return { queued: event };
    },
    list: () => serially(async () => listNow()),
    log: (text) => log.add(tick, text),
    step: (ticks) => serially(async () => {
      assertLive();
      for (let i = 0; i < ticks; i++) await tickOnce();
      return { tick, sim_ms: simMs, chain };
    }),
  };

  const commands = createCommandRegistry<ScriptHost>([...scriptCommands, ...kindCommands]);
  const run = async (command: string, args?: unknown) => {
    try {
      return await commands.run(command, args, host);
    } catch (error) {
      throw ScriptRuntimeError.from(error);
    }
  };

  return {
    run,
    async dispatch(command, args) {
      try {
        return { ok: true, result: await run(command, args) };
      } catch (error) {
        return { ok: false, error: ScriptRuntimeError.from(error).toJSON() };
      }
    },
    async step(ticks = 1) {
      await host.step(ticks);
    },
    emit(event, data) {
      host.queueEvent(event, data);
    },
    start() {
      assertLive();
      if (timer) return;
      timer = setInterval(() => {
        if (ticking) return; // a slow tick is not stacked up behind
        ticking = true;
        void host.step(1).finally(() => { ticking = false; });
      }, config.tick_ms);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    commands,
    config,
    async dispose() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await serially(async () => {
        disposed = true;
        entries.clear();
        await engines?.dispose();
      });
    },
  };
}

function toModuleSource(modules: ScriptRuntimeOptions["modules"]): ModuleSource {
  if (modules === undefined) return () => undefined;
  if (typeof modules === "function") return modules;
  return (path) => (Object.prototype.hasOwnProperty.call(modules, path) ? modules[path] : undefined);
}

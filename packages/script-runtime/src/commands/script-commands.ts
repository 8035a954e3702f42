import type { ScriptHost } from "../runtime/create-script-runtime.js";
import { defineCommand } from "./command-registry.js";
import type { CommandSpec } from "./command-registry.js";
import { NoArgs, RuntimeEmitArgs, RuntimeStepArgs, ScriptLoadArgs, ScriptNameArgs } from "./command-args.js";

/**
 * The `script.*` commands of this package and the host commands
 * `runtime.step` and `runtime.emit`.
 */
export const scriptCommands: CommandSpec<ScriptHost>[] = [
  defineCommand({
    name: "script.load",
    summary: "Queue a script to load (or hot-reload, keeping its state); language js or py (default: the game's language); with player, that player's live script.",
    args: ScriptLoadArgs,
    run: (args, host: ScriptHost) => host.queueLoad({
      name: args.name,
      source: args.source,
      language: args.language ?? host.config.language,
      principal: args.player === undefined ? "creator" : { player: args.player, roles: args.roles ?? [] },
      owner: args.owner ?? false,
      friend: args.friend ?? false,
    }),
  }),
  defineCommand({
    name: "script.list",
    summary: "The tick, simulated time, hash chain, scripts in load order and the log.",
    args: NoArgs,
    run: (_args, host: ScriptHost) => host.list(),
  }),
  defineCommand({
    name: "script.pause",
    summary: "Queue a pause: a paused script gets no events or ticks.",
    args: ScriptNameArgs,
    run: (args, host: ScriptHost) => host.queueControl("pause", args.name),
  }),
  defineCommand({
    name: "script.resume",
    summary: "Queue a resume: the script's clock catches up and due timers fire in order.",
    args: ScriptNameArgs,
    run: (args, host: ScriptHost) => host.queueControl("resume", args.name),
  }),
  defineCommand({
    name: "script.unload",
    summary: "Queue an unload: loading the name again starts from fresh state.",
    args: ScriptNameArgs,
    run: (args, host: ScriptHost) => host.queueControl("unload", args.name),
  }),
  defineCommand({
    name: "runtime.step",
    summary: "Host command: apply the queue and advance this many fixed ticks now.",
    args: RuntimeStepArgs,
    run: (args, host: ScriptHost) => host.step(args.ticks),
  }),
  defineCommand({
    name: "runtime.emit",
    summary: "Host command: queue an event for scripts' `on` handlers.",
    args: RuntimeEmitArgs,
    run: (args, host: ScriptHost) => host.queueEvent(args.event, args.data),
  }),
] as CommandSpec<ScriptHost>[];

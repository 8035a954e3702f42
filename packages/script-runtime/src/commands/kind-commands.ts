import { z } from "zod";
import type { KindsDeclaration } from "../kinds/kind-declaration.js";
import { creatorView, playerView } from "../kinds/kind-grants.js";
import type { ScriptHost } from "../runtime/create-script-runtime.js";
import { apiEntries } from "../types-gen/api-entries.js";
import { TypesFormat, renderTypes } from "../types-gen/render-types.js";
import { defineCommand } from "./command-registry.js";
import type { CommandSpec } from "./command-registry.js";
import { NoArgs } from "./command-args.js";

const FORMATS = Object.values(TypesFormat);

/** Arguments of `script.types`: `format` (required), `player`, `roles` (with `player`). */
export const ScriptTypesArgs = z.object({
  format: z.enum(FORMATS as [TypesFormat, ...TypesFormat[]], {
    error: (issue) => (issue.input === undefined ? "required argument missing (one of ts, py, md, json)"
      : typeof issue.input !== "string" ? "expected a string: one of ts, py, md, json"
        : `unknown format ${JSON.stringify(issue.input.slice(0, 100))}: one of ts, py, md, json`),
  }).describe("ts (TypeScript declarations), py (Python stubs), md (a reference page) or json (the entries)"),
  player: z.boolean().optional().describe("true: the view of a player's live script instead of the game's own scripts'"),
  roles: z.array(z.string()).optional().describe("The player's roles (with player true)"),
}).superRefine((args, ctx) => {
  if (args.roles !== undefined && args.player !== true) ctx.addIssue({ code: "custom", path: ["roles"], message: "only with player true" });
});

const NO_KINDS: KindsDeclaration = { types: [], kinds: [] };

/** The view a command asks for: the game's own scripts', or a player's with roles. */
function viewOf(host: ScriptHost, player: boolean | undefined, roles: readonly string[] | undefined) {
  const decl = host.kinds?.declarations ?? NO_KINDS;
  return player ? playerView(decl, host.config, roles ?? []) : creatorView(decl);
}

/** `script.api` and `script.types`: the game's kinds as scripts see them. */
export const kindCommands: CommandSpec<ScriptHost>[] = [
  defineCommand({
    name: "script.api",
    summary: "The kinds the game's own scripts see: {kinds: [...]} (and the value types their fields use).",
    args: NoArgs,
    run: (_args, host: ScriptHost) => apiEntries(viewOf(host, false, undefined)),
  }),
  defineCommand({
    name: "script.types",
    summary: "Declarations of the script API: format ts, py, md or json; player true (with roles) for a player's live script's view.",
    args: ScriptTypesArgs,
    run: (args, host: ScriptHost) => renderTypes(viewOf(host, args.player, args.roles), args.format),
  }),
] as CommandSpec<ScriptHost>[];

export { createScriptRuntime } from "./runtime/create-script-runtime.js";
export type { CommandOutcome, ScriptEntry, ScriptHost, ScriptList, ScriptRuntime, ScriptRuntimeOptions } from "./runtime/create-script-runtime.js";
export { ErrorCode, ScriptRuntimeError } from "./errors.js";
export type { ErrorJson } from "./errors.js";
export { DEFAULT_SCRIPT_CONFIG, ScriptConfig, resolveScriptConfig } from "./config/script-config.js";
export type { ResolvedScriptConfig } from "./config/script-config.js";
export { PlayersSetting } from "./policy/players-setting.js";
export type { ModerationHook, ModerationVerdict } from "./policy/moderation.js";
export type { Principal } from "./policy/principal.js";
export type { ModuleSource } from "./engine/sandbox.js";
export { stateHash, nextChain, GENESIS_CHAIN } from "./state/state-hash.js";

// Symbols above should be relevant to end users. Symbols below should only
// be relevant for packages that add commands (kinds, script.types, editor.scripts.*).
/** @private Internal code, does not follow semantic versioning. */
export { createCommandRegistry, defineCommand } from "./commands/command-registry.js";
export type { CommandRegistry, CommandSpec } from "./commands/command-registry.js";
export { normalizeModuleName } from "./engine/module-names.js";

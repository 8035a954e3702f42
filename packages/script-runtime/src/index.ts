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
export type { ScriptEngines, ScriptEnginesFactory, EngineSettings, LoadSpec, StepResult } from "./engine/script-engines.js";
export { stateHash, nextChain, GENESIS_CHAIN } from "./state/state-hash.js";
export { createGameKinds } from "./kinds/create-game-kinds.js";
export type { GameKindsOptions, GameKindsWithWorld } from "./kinds/create-game-kinds.js";
export type { GameKinds } from "./kinds/game-kinds.js";
export { KindsDeclaration, BaseType } from "./kinds/kind-declaration.js";
export type { KindsDeclarationInput, KindDeclaration, FieldDeclaration, MethodDeclaration, ValueTypeDeclaration } from "./kinds/kind-declaration.js";
export { KindGrant } from "./kinds/kind-grants.js";
export type { KindWorld, WorldObject } from "./kinds/kind-world.js";
export type { MethodImplementation, MethodImplementations } from "./kinds/script-api-host.js";
export { REFERENCE_KINDS, createReferenceWorld, stepReferenceWorld } from "./kinds/reference-world.js";
export type { ReferenceWorld, ReferenceWorldOptions } from "./kinds/reference-world.js";
export type { ScriptApi, ApiKind, ApiField, ApiMethod, ApiValueType } from "./types-gen/api-entries.js";

// Symbols above should be relevant to end users. Symbols below should only
// be relevant for packages that add commands (kinds, script.types, editor.scripts.*).
/** @private Internal code, does not follow semantic versioning. */
export { createCommandRegistry, defineCommand } from "./commands/command-registry.js";
export type { CommandRegistry, CommandSpec } from "./commands/command-registry.js";
export { normalizeModuleName } from "./engine/module-names.js";

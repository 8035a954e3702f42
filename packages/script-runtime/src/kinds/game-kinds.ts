import type { ScriptLanguage } from "../commands/command-args.js";
import type { ResolvedScriptConfig } from "../config/script-config.js";
import type { SandboxApi } from "../engine/sandbox.js";
import type { Principal } from "../policy/principal.js";
import type { KindsDeclaration } from "./kind-declaration.js";

/**
 * GameKinds is what the script runtime needs of the kinds an embedding game
 * exposes: their declarations (for `script.api` and `script.types`), the
 * check of the script configuration against them, the in-script API of each
 * script, and the world's fixed tick.
 */
export interface GameKinds {
  readonly declarations: KindsDeclaration;
  /** Problems of the configuration against the kinds (logged as manifest problems). */
  validate(config: ResolvedScriptConfig): string[];
  /** The in-script API of one script, narrowed to what its principal may see, in the script's language (default `js`). */
  sandboxApi(script: { name: string; principal: Principal; language?: ScriptLanguage }, config: ResolvedScriptConfig): SandboxApi;
  /** Advances the world one fixed tick, before the scripts run. */
  tick(tick: number, simMs: number, dtMs: number): void;
}

import type { GameKinds } from "./game-kinds.js";
import { KindsDeclaration } from "./kind-declaration.js";
import type { KindsDeclarationInput } from "./kind-declaration.js";
import { validateGrants, viewFor } from "./kind-grants.js";
import { createKindWorld } from "./kind-world.js";
import type { KindWorld } from "./kind-world.js";
import { createMethodRates } from "./method-rates.js";
import { createScriptApiCall } from "./script-api-host.js";
import type { MethodImplementations } from "./script-api-host.js";
import { scriptApiSource } from "./script-api-source.js";
import { scriptApiSourcePy } from "./script-api-source-py.js";

/** Options of {@link createGameKinds}. */
export interface GameKindsOptions {
  /** The kinds and value types the game exposes (checked once: a bad declaration throws). */
  declarations: KindsDeclarationInput;
  /** The host side of every declared method, by kind and snake_case name. */
  methods?: MethodImplementations;
  /** Fills the world before the first tick (or pass objects in later through `world`). */
  setup?: (world: KindWorld) => void;
  /** Moves the world one fixed tick (deterministically), before the scripts run. */
  step?: (world: KindWorld, dtMs: number, tick: number) => void;
}

/** The game's kinds with their world, ready for `createScriptRuntime({ kinds })`. */
export interface GameKindsWithWorld extends GameKinds {
  readonly world: KindWorld;
}

/**
 * Creates the kinds a game exposes to scripts, and the world holding their
 * objects. Give it to `createScriptRuntime({ kinds })`: every script then
 * sees the global `game`, narrowed by the script configuration for players'
 * live scripts.
 *
 * @example
 * const kinds = createGameKinds({
 *   declarations: { kinds: [{ kind: "Door", spawnable: false, fields: [{ name: "is_open", js: "isOpen", type: "boolean", write: true }] }] },
 *   setup: (world) => { world.spawn("Door") },
 * });
 * const runtime = createScriptRuntime({ kinds });
 */
export function createGameKinds(options: GameKindsOptions): GameKindsWithWorld {
  const parsed = KindsDeclaration.safeParse(options.declarations);
  if (!parsed.success) {
    throw new Error(`kinds declaration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  const declarations = parsed.data;
  const world = createKindWorld(declarations);
  options.setup?.(world);
  const rates = createMethodRates();
  const methods = options.methods ?? {};
  return {
    declarations,
    world,
    validate: (config) => validateGrants(declarations, config),
    sandboxApi({ name, principal, language = "js" }, config) {
      const view = viewFor(declarations, config, principal);
      // A player's calls count together across all their scripts, so renaming a script does not reset its rates.
      const rateKey = principal === "creator" ? `script ${name}` : `player ${principal.player}`;
      return {
        source: language === "py" ? scriptApiSourcePy(view) : scriptApiSource(view),
        call: createScriptApiCall({ world, view, script: name, rateKey, methods, rates, language }),
      };
    },
    tick(tick, _simMs, dtMs) {
      options.step?.(world, dtMs, tick);
    },
  };
}

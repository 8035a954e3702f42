import { z } from "zod";
import { PlayersSetting } from "../policy/players-setting.js";

const KiB = 1024;
const MiB = 1024 * KiB;

/** Defaults of the script configuration. */
export const DEFAULT_SCRIPT_CONFIG = {
  /** The game's script language: what `script.load` takes when it names none. */
  language: "js" as "js" | "py",
  tick_ms: 50,
  fuel_per_tick: 200_000,
  player_fuel_per_tick: 50_000,
  load_fuel: 2_000_000,
  memory_limit_bytes: 8 * MiB,
  player_memory_limit_bytes: 4 * MiB,
  max_stack_bytes: 64 * KiB,
  max_source_bytes: 256 * KiB,
  player_max_source_bytes: 16 * KiB,
  max_state_bytes: 1 * MiB,
  /** Real time one script's tick (or load) may take before it stops with a fault; 0 turns the watchdog off. */
  watchdog_ms: 1_000,
  /**
   * Which scripts share an engine cell (a fixed-size memory, the byte bound):
   * "tenant" (the creator's scripts, or one player's) or "script" (each its
   * own: a byte cap per script, at ~21 ms against ~4 ms to load and ~200 KiB
   * against ~150 KiB resident per script).
   */
  isolation: "tenant" as "tenant" | "script",
  players: "owner" as PlayersSetting,
  deny: [] as string[],
  forbid: ["eval", "Function", "constructor", "__proto__", "import("],
  /** What players' live scripts see of each kind (see `KindGrant`); checked against the game's kinds. */
  kinds: {} as Record<string, unknown>,
  /** Extra grants per role: `{ "<role>": { "kinds": {...} } }`. */
  roles: {} as Record<string, unknown>,
} as const;

const positive = (max: number) => z.number().int().positive().max(max);

/**
 * ScriptConfig is the script configuration: tick length, fuel and memory
 * budgets for the game's scripts and for players' live scripts, the players
 * setting and the moderation rules. Every field is optional.
 */
export const ScriptConfig = z.object({
  language: z.enum(["js", "py"]),
  tick_ms: positive(60_000),
  fuel_per_tick: positive(2 ** 30),
  player_fuel_per_tick: positive(2 ** 30),
  load_fuel: positive(2 ** 30),
  memory_limit_bytes: z.number().int().min(256 * KiB).max(512 * MiB),
  player_memory_limit_bytes: z.number().int().min(256 * KiB).max(512 * MiB),
  // Above 64 KiB, deep JSON or toString recursion can exhaust the host's native stack before QuickJS's check.
  max_stack_bytes: z.number().int().min(16 * KiB).max(64 * KiB),
  max_source_bytes: positive(16 * MiB),
  player_max_source_bytes: positive(16 * MiB),
  max_state_bytes: positive(64 * MiB),
  watchdog_ms: z.number().int().min(0).max(600_000),
  isolation: z.enum(["tenant", "script"]),
  players: PlayersSetting,
  deny: z.array(z.string()),
  forbid: z.array(z.string().min(1)),
  // Checked in detail against the game's kinds (kinds/kind-grants.ts), where each problem is named.
  kinds: z.record(z.string(), z.unknown()),
  roles: z.record(z.string(), z.unknown()),
}).partial();
export type ScriptConfig = z.infer<typeof ScriptConfig>;

/** The configuration with every field filled in. */
export type ResolvedScriptConfig = { -readonly [K in keyof typeof DEFAULT_SCRIPT_CONFIG]: K extends "deny" | "forbid" ? string[] : K extends "players" ? PlayersSetting : K extends "isolation" ? "tenant" | "script" : K extends "language" ? "js" | "py" : K extends "kinds" | "roles" ? Record<string, unknown> : number };

/**
 * Fills in defaults. A field that does not fit its rule is not fatal: the
 * default is used and the problem is returned, for the log ("manifest
 * problem" lines), as a game editor would.
 */
export function resolveScriptConfig(input: unknown): { config: ResolvedScriptConfig; problems: string[] } {
  const config = { ...DEFAULT_SCRIPT_CONFIG, deny: [...DEFAULT_SCRIPT_CONFIG.deny], forbid: [...DEFAULT_SCRIPT_CONFIG.forbid], kinds: {}, roles: {} } as ResolvedScriptConfig;
  const problems: string[] = [];
  if (input === undefined) return { config, problems };
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { config, problems: ["script configuration: expected an object; using the defaults"] };
  }
  const shape = ScriptConfig.shape;
  for (const [key, value] of Object.entries(input)) {
    const field = (shape as Record<string, z.ZodType | undefined>)[key];
    if (!field) {
      problems.push(`script configuration: unknown field ${key}; ignored`);
      continue;
    }
    const parsed = field.safeParse(value);
    if (parsed.success) {
      if (parsed.data !== undefined) (config as Record<string, unknown>)[key] = parsed.data;
    } else {
      const why = parsed.error.issues[0]?.message ?? "invalid";
      problems.push(`script configuration: ${key}: ${why}; using ${JSON.stringify((DEFAULT_SCRIPT_CONFIG as Record<string, unknown>)[key])}`);
    }
  }
  return { config, problems };
}

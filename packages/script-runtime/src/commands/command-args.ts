import { z } from "zod";

const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "required argument missing" : `expected ${what}`),
});

/**
 * A script's name: letters, digits, `_`, `-`, `.` and `/` (folders), up to
 * 100 characters. A name is also a path inside the scripts folder, so no
 * folder of it is `.`, `..` or empty.
 */
export const ScriptName = z.string(required("a string"))
  .min(1, "must not be empty")
  .max(100, "at most 100 characters")
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_./-]*$/, "letters, digits, _ - . and / only, not starting with . - or /")
  .refine((name) => name.split("/").every((part) => part !== "" && part !== "." && part !== ".."), "no folder named . or .. and no empty folder name")
  .describe("The script's name: letters, digits, _ - . and / (folders), at most 100 characters; for a project file, its path in scripts/ without extension");

/** The languages a script may be written in. */
export const ScriptLanguage = z.enum(["js", "py"], { error: () => 'expected "js" or "py"' });
export type ScriptLanguage = z.infer<typeof ScriptLanguage>;

/** Arguments of `script.load`. */
export const ScriptLoadArgs = z.object({
  name: ScriptName,
  source: z.string(required("a string")).describe("The script's source: a JavaScript module whose default export holds its handlers, or (language py) a Python module whose top-level functions are its handlers"),
  /** The source's language; default: the configuration's `language` (itself "js" by default). */
  language: ScriptLanguage.optional().describe("The source's language, js or py; default: the configuration's language (js)"),
  player: z.string().min(1).optional().describe("Load it as this player's live script (the player's id); without it, the game's own script"),
  roles: z.array(z.string()).optional().describe("The player's roles (with player)"),
  owner: z.boolean().optional().describe("The player owns the place (with player)"),
  friend: z.boolean().optional().describe("The player is a friend of the owner (with player)"),
}).superRefine((args, ctx) => {
  if (args.player !== undefined) return;
  for (const key of ["roles", "owner", "friend"] as const) {
    if (args[key] !== undefined) ctx.addIssue({ code: "custom", path: [key], message: "only with player" });
  }
});
export type ScriptLoadArgs = z.infer<typeof ScriptLoadArgs>;

/** Arguments of `script.pause`, `script.resume` and `script.unload`. */
export const ScriptNameArgs = z.object({ name: ScriptName });

/** Arguments of `script.list`. */
export const NoArgs = z.object({});

/** Arguments of the host command `runtime.step`. */
export const RuntimeStepArgs = z.object({ ticks: z.number().int().min(0).max(1_000_000).default(1).describe("How many fixed ticks to advance now") });

/** The deepest a command's JSON data may nest (as `this.state`). */
export const MAX_DATA_DEPTH = 64;

/** How deep `value` nests arrays and objects, counted without recursion and no further than `limit + 1`. */
function nesting(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    deepest = Math.max(deepest, depth);
    if (depth > limit) return depth;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** JSON data nested at most {@link MAX_DATA_DEPTH} levels; the depth is checked before anything walks the value. */
export const JsonData = z.unknown().superRefine((value, ctx) => {
  if (nesting(value, MAX_DATA_DEPTH) > MAX_DATA_DEPTH) {
    ctx.addIssue({ code: "custom", message: `nested deeper than ${MAX_DATA_DEPTH} levels` });
    return;
  }
  const json = z.json().safeParse(value);
  if (!json.success) ctx.addIssue({ code: "custom", message: `not JSON data: ${json.error.issues[0]?.message ?? "invalid"}`, path: json.error.issues[0]?.path as PropertyKey[] | undefined });
}).meta({ description: `JSON data, nested at most ${MAX_DATA_DEPTH} levels` });

/** Arguments of the host command `runtime.emit`. */
export const RuntimeEmitArgs = z.object({
  event: z.string(required("a string")).min(1).max(100).describe("The event's name: scripts' on.<event> (or onEvent) handlers get it on the next tick"),
  data: JsonData.optional(),
});

import { z } from "zod";

const required = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "required argument missing" : `expected ${what}`),
});

/** A script's name: letters, digits, `_`, `-`, `.` and `/` (folders), up to 100 characters. */
export const ScriptName = z.string(required("a string"))
  .min(1, "must not be empty")
  .max(100, "at most 100 characters")
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_./-]*$/, "letters, digits, _ - . and / only, not starting with . - or /");

/** The languages a script may be written in. */
export const ScriptLanguage = z.enum(["js", "py"], { error: () => 'expected "js" or "py"' });
export type ScriptLanguage = z.infer<typeof ScriptLanguage>;

/** Arguments of `script.load`. */
export const ScriptLoadArgs = z.object({
  name: ScriptName,
  source: z.string(required("a string")),
  /** The source's language; default: the configuration's `language` (itself "js" by default). */
  language: ScriptLanguage.optional(),
  player: z.string().min(1).optional(),
  roles: z.array(z.string()).optional(),
  owner: z.boolean().optional(),
  friend: z.boolean().optional(),
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
export const RuntimeStepArgs = z.object({ ticks: z.number().int().min(0).max(1_000_000).default(1) });

/** Arguments of the host command `runtime.emit`. */
export const RuntimeEmitArgs = z.object({
  event: z.string(required("a string")).min(1).max(100),
  data: z.json().optional(),
});

import type { z } from "zod";
import { ErrorCode, ScriptRuntimeError } from "../errors.js";

/**
 * CommandSpec describes one command: its name, a summary, the zod schema of
 * its arguments and the function that carries it out on a context `C`.
 */
export interface CommandSpec<C, S extends z.ZodType = z.ZodType> {
  name: string;
  summary: string;
  args: S;
  run: (args: z.output<S>, context: C) => unknown;
}

/** Declares a command with its argument type inferred from the schema. */
export function defineCommand<C, S extends z.ZodType>(spec: CommandSpec<C, S>): CommandSpec<C, S> {
  return spec;
}

/**
 * CommandRegistry is the one dispatcher of every command: it validates the
 * arguments with the command's schema and runs it. Later commands (kinds,
 * `script.types`, `editor.scripts.*`) are added with `register`.
 */
export interface CommandRegistry<C> {
  register<S extends z.ZodType>(spec: CommandSpec<C, S>): void;
  /** Runs a command: an unknown name is `not_found`, bad arguments `invalid_argument`. */
  run(name: string, args: unknown, context: C): Promise<unknown>;
  /** Every command's name, summary and argument schema, in registration order. */
  list(): { name: string; summary: string; args: z.ZodType }[];
}

/** Creates a registry holding `specs`. */
export function createCommandRegistry<C>(specs: readonly CommandSpec<C, z.ZodType>[] = []): CommandRegistry<C> {
  const commands = new Map<string, CommandSpec<C, z.ZodType>>();
  const registry: CommandRegistry<C> = {
    register(spec) {
      if (commands.has(spec.name)) throw new Error(`command ${spec.name} is already registered`);
      commands.set(spec.name, spec as unknown as CommandSpec<C, z.ZodType>);
    },
    async run(name, args, context) {
      const spec = commands.get(name);
      if (!spec) throw new ScriptRuntimeError(ErrorCode.NotFound, `unknown command: ${name}`);
      const parsed = spec.args.safeParse(args ?? {});
      if (!parsed.success) {
        const message = parsed.error.issues
          .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "arguments"}: ${issue.message}`)
          .join("; ");
        throw new ScriptRuntimeError(ErrorCode.InvalidArgument, `${name}: ${message}`);
      }
      return spec.run(parsed.data, context);
    },
    list: () => [...commands.values()].map(({ name, summary, args }) => ({ name, summary, args })),
  };
  for (const spec of specs) registry.register(spec);
  return registry;
}

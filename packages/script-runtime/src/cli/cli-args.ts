import { parseArgs } from "node:util";

/** What `playfield-scripts --help` prints. */
export const USAGE = `Usage:
  playfield-scripts [options]         JSON command lines on stdin, one JSON answer line per command on stdout
  playfield-scripts serve [options]   the commands over HTTP on 127.0.0.1 (POST /commands/<command>) and the Scripts panel at /
  playfield-scripts mcp [options]     the commands as Model Context Protocol tools over stdio, for agents and editors

Options:
  --project DIR    the project folder: scripts/ serves imports and holds scripts.config.json;
                   the editor.scripts.* commands and live reload act on it (it must exist)
  --create         make the project folder when it does not exist
  --manual-ticks   ticks advance only with the runtime.step command (default: real time)
  --seed N         seed of scripts' Math.random, an integer from 0 to 4294967295 (default 0)
  --port N         serve only: the port, 0 to 65535 (default 0: a free one)
  -h, --help       print this and exit

Scripts see the package's reference world (game). Commands: docs/scripts.md and docs/script-editor.md.
`;

/** The modes of the command line. */
export type CliMode = "lines" | "serve" | "mcp";

/** The command line, parsed and checked. */
export interface CliArgs {
  mode: CliMode;
  help: boolean;
  project: string | undefined;
  create: boolean;
  manualTicks: boolean;
  seed: number;
  port: number;
}

/** A command line that cannot run: the message says why; the process exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

const MODES: readonly string[] = ["serve", "mcp"];

const integerIn = (flag: string, text: string | undefined, min: number, max: number, fallback: number): number => {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return Number(text);
};

/**
 * Parses `playfield-scripts`' arguments. Unknown options, stray arguments,
 * a value missing after an option and values out of range are a
 * {@link UsageError}, so a typo never runs with defaults.
 */
export function parseCliArgs(argv: readonly string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        project: { type: "string" },
        create: { type: "boolean" },
        "manual-ticks": { type: "boolean" },
        seed: { type: "string" },
        port: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return { mode: "lines", help: true, project: undefined, create: false, manualTicks: false, seed: 0, port: 0 };
  const [first, ...rest] = positionals;
  if (first !== undefined && !MODES.includes(first)) throw new UsageError(`unknown command ${JSON.stringify(first)}: serve, mcp, or none for JSON lines`);
  if (rest.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(rest[0])}`);
  const mode = (first ?? "lines") as CliMode;
  if (values.port !== undefined && mode !== "serve") throw new UsageError("--port is an option of serve only");
  if (values.create && values.project === undefined) throw new UsageError("--create needs --project DIR");
  if (values.project === "") throw new UsageError("--project needs a folder");
  return {
    mode,
    help: false,
    project: values.project,
    create: values.create ?? false,
    manualTicks: values["manual-ticks"] ?? false,
    seed: integerIn("--seed", values.seed, 0, 0xffff_ffff, 0),
    port: integerIn("--port", values.port, 0, 65_535, 0),
  };
}

/** parseArgs' errors in this command line's words. */
function describeParseError(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(-[^']*)'/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `unknown option ${option ?? message}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const name = option?.replace(/ <value>$/, "") ?? "an option";
    return /does not take an argument/.test(message) ? `${name} takes no value` : `${name} needs a value`;
  }
  return message;
}

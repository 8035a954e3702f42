import { parseArgs } from "node:util";

/** What `playfield-server --help` prints. */
export const USAGE = `Usage: playfield-server [options]

The Playfield platform server on a port, its data in memory (lost when it stops).

Options:
  --port N            the port, 0 to 65535; 0 picks a free one (default: $PORT, else 8080)
  --host HOST         the address to listen on (default: $HOST, else 127.0.0.1)
  --web-origin URL    a web page origin allowed to call the API (CORS), such as https://game.example;
                      repeat for several. Loopback pages are allowed anyway outside production
  --demo              start with a demo creator and a few public experiences to list and join
  -h, --help          print this and exit

Environment: PORT, HOST, and PLAYFIELD_ENV=production for production defaults (no loopback pages,
the full password hashing cost). Stop it with Ctrl-C or SIGTERM.
`;

/** The command line, parsed and checked. */
export interface ServerArgs {
  help: boolean;
  port: number;
  host: string;
  webOrigins: string[];
  demo: boolean;
}

/** A command line that cannot run: the message says why; the process exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

function portOf(text: string, from: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65_535) throw new UsageError(`${from} must be a port from 0 to 65535, got ${JSON.stringify(text)}`);
  return Number(text);
}

function originOf(text: string): string {
  let origin: string | undefined;
  try {
    origin = new URL(text).origin;
  } catch {
    // refused below
  }
  if (origin !== text) throw new UsageError(`--web-origin must be an origin (scheme, host and port, no path), such as https://game.example; got ${JSON.stringify(text)}`);
  return text;
}

/**
 * Parses `playfield-server`'s arguments, with `PORT` and `HOST` from the
 * environment as defaults. Unknown options, stray arguments and bad values
 * are a {@link UsageError}, so a typo never starts a server with defaults.
 */
export function parseServerArgs(argv: readonly string[], env: Record<string, string | undefined>): ServerArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: false,
      strict: true,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "web-origin": { type: "string", multiple: true },
        demo: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    // node:util's messages name the option; they end with advice for scripts, not for people.
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ""));
  }
  const { values } = parsed;
  const host = values.host ?? env.HOST ?? "127.0.0.1";
  if (host === "") throw new UsageError("--host needs an address");
  return {
    help: values.help ?? false,
    port: values.port !== undefined ? portOf(values.port, "--port") : env.PORT ? portOf(env.PORT, "PORT") : 8080,
    host,
    webOrigins: (values["web-origin"] ?? []).map(originOf),
    demo: values.demo ?? false,
  };
}

#!/usr/bin/env node
/**
 * `playfield-server`: the platform server on a port, its data in memory.
 * `--help` says more ({@link USAGE}). The arguments are checked before the
 * server is imported, so `--help` and a mistyped option answer at once.
 */
import { USAGE, UsageError, parseServerArgs, type ServerArgs } from "./cli/server-args.js";

// A command line that cannot run exits 2, a failure after starting 1.
const USAGE_EXIT = 2;
const FAILURE_EXIT = 1;

function fail(message: string, exitCode: number): never {
  process.stderr.write(`playfield-server: ${message}\n`);
  process.exit(exitCode);
}

async function main(): Promise<void> {
  let args: ServerArgs;
  try {
    args = parseServerArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof UsageError) fail(`${error.message}\nRun playfield-server --help for the options.`, USAGE_EXIT);
    throw error;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return;
  }
  const [{ startServer }, { createMemoryStorage }, { addDemoContent }] = await Promise.all([
    import("./node/start-server.js"), import("./ports/memory-storage/index.js"), import("./cli/demo-content.js"),
  ]);
  const environment = process.env.PLAYFIELD_ENV === "production" ? "production" : "development";
  const server = await startServer({ storage: createMemoryStorage(), port: args.port, host: args.host, environment, webOrigins: args.webOrigins })
    .catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EADDRINUSE") throw error;
      const next = args.port === 65_535 ? 8080 : args.port + 1;
      return fail(`port ${args.port} on ${args.host} is already in use (another playfield-server?). `
        + `Choose another with --port ${next} or PORT=${next}; --port 0 picks a free one.`, FAILURE_EXIT);
    });
  if (args.demo) await addDemoContent(server);
  console.log(`Playfield server (in memory) listening on ${server.url}`);
  console.log(`  health: ${server.url}/healthz   keys: ${server.url}/.well-known/jwks.json${args.demo ? "   demo: 3 public experiences" : ""}`);

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      // A second signal while closing stops at once.
      process.once(signal, () => process.exit(FAILURE_EXIT));
      void server.close().finally(() => process.exit(0));
    });
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.stack ?? error.message : String(error), FAILURE_EXIT));

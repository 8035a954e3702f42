#!/usr/bin/env node
/**
 * `playfield-server`: the platform server on a port, its data in memory,
 * in a data folder (PGlite) or on PostgreSQL. `--help` says more
 * ({@link USAGE}). The arguments are checked before the server is imported,
 * so `--help` and a mistyped option answer at once; the PostgreSQL and
 * Redis adapters are imported only when a flag asks for them.
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import type { Storage } from "@playfield/core";
import { USAGE, UsageError, parseServerArgs, redact, type RedisChoice, type ServerArgs, type StorageChoice } from "./server-args.js";
import type { StartServerOptions } from "@playfield/server/node";

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
  if (args.command.kind !== "serve") return moveWorld(args.command, args.storage);
  const [{ startServer, AdminPortInUseError, createLogger }, { addDemoContent }, { storedSigningKeys, createStorageBlobStore, createSystemClock }] = await Promise.all([
    import("@playfield/server/node"), import("./demo-content.js"), import("@playfield/server"),
  ]);
  const { storage, close: closeStorage } = await openStorage(args.storage);
  const shared = args.redis ? await openRedis(args.redis) : null;
  const clock = createSystemClock();
  // JSON lines on stdout, after the human banner; the banner stays the first thing printed.
  const log = createLogger(args.logLevel);
  // Keys and blobs live in the storage, so a persistent storage keeps tokens and uploads across restarts.
  const keys = await storedSigningKeys(storage, clock);
  const server = await startServer({
    storage, clock, keys, blobs: createStorageBlobStore(storage), port: args.port, host: args.host, environment: args.environment,
    ...(args.publicUrl ? { publicUrl: args.publicUrl } : {}), ...(args.accountCreationLimit !== null ? { accountCreationLimit: args.accountCreationLimit } : {}), webOrigins: args.webOrigins, trustedProxies: args.trustedProxies,
    log, ...(args.adminPort !== null ? { admin: { port: args.adminPort, host: args.adminHost } } : {}),
    ...shared?.options,
  })
    .catch((error: NodeJS.ErrnoException) => {
      if (error instanceof AdminPortInUseError) {
        throw new StartError(`${error.message}. Choose another with --admin-port N or PLAYFIELD_ADMIN_PORT=N (0 picks a free one), or --admin-port off for none.`);
      }
      if (error.code !== "EADDRINUSE") throw error;
      // Past the admin port when it is the default one above: another server there holds both.
      const step = args.adminPort === args.port + 1 ? 2 : 1;
      const next = args.port + step > 65_535 ? 8080 : args.port + step;
      return fail(`port ${args.port} on ${args.host} is already in use (another playfield-server?). `
        + `Choose another with --port ${next} or PORT=${next}; --port 0 picks a free one.`, FAILURE_EXIT);
    });
  if (args.demo) await addDemoContent(server);
  console.log(`Playfield server (${args.environment}, ${describe(args.storage)}, pid ${process.pid}) listening on ${server.url}`);
  console.log(`  health: ${server.url}/healthz   ready: ${server.url}/readyz   keys: ${server.url}/.well-known/jwks.json${args.demo ? "   demo: 3 public experiences" : ""}`);
  if (server.deps.config.publicUrl !== server.url) console.log(`  players are handed URLs at ${server.deps.config.publicUrl}`);
  if (server.admin) console.log(`  admin: ${server.admin.url}/metrics (Prometheus)${isLoopbackUrl(server.admin.url) ? ", this machine only" : ""}; never on the public port`);
  if (args.environment !== "production") console.log(`  ${args.environment} mode: loopback web pages allowed, sandbox top-ups paid with no money, a cheaper password hash; not for players`);
  if (args.redis) console.log(`  shared with the other processes on this database through Redis at ${redact(args.redis.url)} (keys under ${args.redis.keyPrefix})`);
  else if (args.storage.kind === "postgres") console.log("  single process: realtime events and presence stay in this process; to run several on this database, add --redis-url (docs/deploy.md)");
  log.info({ url: server.url, admin: server.admin?.url ?? null, environment: args.environment, storage: describe(args.storage) }, "listening");

  let stopping = 0;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      // A terminal's Ctrl-C arrives more than once (directly, and through npm and the launcher):
      // only a signal a moment after the first means "stop now".
      if (stopping !== 0) {
        if (performance.now() - stopping > REPEAT_SIGNAL_MS) fail(`${signal} again: stopped without waiting`, FAILURE_EXIT);
        return;
      }
      stopping = performance.now();
      log.info({ signal }, "shutting down");
      console.log(`${signal}: shutting down (up to ${args.shutdownTimeoutMs / 1000} s for what is under way; ${signal === "SIGINT" ? "Ctrl-C again" : "a second signal"} stops at once)`);
      void server.close({ timeoutMs: args.shutdownTimeoutMs })
        // After the WebSockets closed: the other processes hear at once that this one's users left.
        .then(() => shared?.close())
        .then(closeStorage)
        .then(() => process.exit(0), (error: unknown) => fail(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`, FAILURE_EXIT));
    });
  }
}

/** Signals this close to the first are copies of it, not a second request. */
const REPEAT_SIGNAL_MS = 1000;

/** `export FILE` or `import FILE`: the world between the storage and the file, then exit. */
async function moveWorld(command: { kind: "export" | "import"; file: string }, choice: StorageChoice): Promise<void> {
  const { exportWorld, importWorld, WorldFileError } = await import("./world-file.js");
  // A refused import changes nothing: not even a data folder it would have created.
  const newFolder = command.kind === "import" && choice.kind === "data-dir" && !existsSync(choice.dataDir) ? choice.dataDir : null;
  const { storage, close } = await openStorage(choice).catch(async (error: unknown) => {
    if (newFolder) await rm(newFolder, { recursive: true, force: true });
    throw error;
  });
  try {
    const counts = command.kind === "export" ? await exportWorld(storage, command.file) : await importWorld(storage, command.file);
    const where = command.kind === "export" ? `to ${command.file}` : `from ${command.file}`;
    console.log(`${command.kind}ed ${counts.rows} rows of ${counts.tables} tables ${where} (storage: ${describe(choice)})`);
  } catch (error) {
    await close();
    if (newFolder) await rm(newFolder, { recursive: true, force: true });
    const known = error instanceof WorldFileError || (error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "EACCES";
    if (known) throw new StartError(`cannot ${command.kind} ${command.file}: ${(error as Error).message}`);
    throw error;
  }
  await close();
}

/** The storage a choice names, its tables set up. */
async function openStorage(choice: StorageChoice): Promise<{ storage: Storage; close: () => Promise<void> }> {
  if (choice.kind === "memory") {
    const { createMemoryStorage } = await import("@playfield/server");
    return { storage: createMemoryStorage(), close: async () => undefined };
  }
  const [{ tables }, { createPgliteStorage, createPostgresStorage }] = await Promise.all([import("@playfield/core"), import("@playfield/storage-postgres")]);
  let storage: ReturnType<typeof createPgliteStorage> | undefined;
  try {
    // A data folder another process holds is refused here, before anything is read from it.
    storage = choice.kind === "data-dir" ? createPgliteStorage({ dataDir: choice.dataDir }) : createPostgresStorage({
      // node-postgres' pool; `max` left out is its default, 10.
      pool: { connectionString: choice.url, max: choice.poolSize }, schema: choice.schema, listenUrl: choice.listenUrl, prepare: choice.prepare,
    });
    await storage.init(tables.allTables);
  } catch (error) {
    // The first contact with the database: say where and why, not a driver's stack.
    await storage?.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new StartError(`cannot open the storage (${describe(choice)}): ${reason}`);
  }
  const opened = storage;
  return { storage: opened, close: () => opened.close() };
}

/** The Redis adapters of this process: the server options that use them, and their close. */
async function openRedis(choice: RedisChoice): Promise<{ options: Partial<StartServerOptions>; close: () => Promise<void> }> {
  const [{ connectRedisRealtime }, { createRealtimeHub }] = await Promise.all([import("@playfield/realtime-redis"), import("@playfield/server")]);
  const onError = (error: unknown) => console.error(`playfield-server: redis: ${error instanceof Error ? error.message : String(error)}`);
  let redis: Awaited<ReturnType<typeof connectRedisRealtime>>;
  try {
    redis = await connectRedisRealtime({ url: choice.url, keyPrefix: choice.keyPrefix, onError });
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new StartError(`cannot reach Redis at ${redact(choice.url)}: ${reason}`);
  }
  return {
    options: {
      realtime: createRealtimeHub({ pubsub: redis.pubsub }),
      presence: redis.presence,
      readinessChecks: [{ name: "redis", check: () => redis.ping() }],
    },
    close: () => redis.close(),
  };
}

function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "[::1]" || host.startsWith("127.");
}

function describe(choice: StorageChoice): string {
  if (choice.kind === "memory") return "in memory";
  if (choice.kind === "data-dir") return `data in ${choice.dataDir}, PGlite`;
  return `on PostgreSQL at ${redact(choice.url)}, schema ${choice.schema}`;
}

/** A start-up failure the user can act on: printed as its message alone. */
class StartError extends Error {}

main().catch((error: unknown) =>
  fail(error instanceof StartError ? error.message : error instanceof Error ? error.stack ?? error.message : String(error), FAILURE_EXIT));

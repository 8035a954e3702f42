import { isIP } from "node:net";
import { parseArgs } from "node:util";
import { normalizePublicUrl, PUBLIC_URL_RULE, publicUrlRefusal } from "@playfield/core";

/** What `playfield-server --help` prints. */
export const USAGE = `Usage: playfield-server [options]
       playfield-server export FILE (--data-dir DIR | --database-url URL [--database-schema S])
       playfield-server import FILE (--data-dir DIR | --database-url URL [--database-schema S])
       playfield-server operator add USERNAME --role ROLE | remove USERNAME | list  (--data-dir DIR | --database-url URL)

The Playfield platform server on a port. Its data lives in memory (lost when it stops), in a
data folder (--data-dir), or on a PostgreSQL server (--database-url).

export writes every row of the storage (accounts, signing keys, wallets, datastores, uploads…) to FILE
(JSON lines); import loads such a file into a storage that holds no data yet. Tokens keep working.

operator manages the accounts of the admin API (docs/operators.md): add one with a role (admin,
moderator, support or viewer) and the password in $PLAYFIELD_OPERATOR_PASSWORD (else a generated one,
printed once), remove one, or list them. At every start, $PLAYFIELD_ADMIN_PASSWORD sets the password of the
operator admin; without it, a storage with no operator gets admin with a generated password, printed once.

Options:
  --port N            the port, 0 to 65535; 0 picks a free one (default: $PORT, else 8080)
  --host HOST         the address to listen on (default: $HOST, else 127.0.0.1); beyond loopback
                      (such as 0.0.0.0) it needs --public-url
  --public-url URL    the address players reach this server at, such as https://play.example: the
                      realtime, signalling and checkout URLs it hands out are built from it, never from a
                      request's Host (default: $PLAYFIELD_PUBLIC_URL, else the listening address on loopback)
  --dev               development defaults: loopback web pages allowed, sandbox top-ups, a cheaper password
                      hash, answers checked against their schemas (default: production, unless $PLAYFIELD_ENV
                      says development or test)
  --web-origin URL    a web page origin allowed to call the API (CORS), such as https://game.example;
                      repeat for several. Loopback pages are allowed anyway outside production
  --trusted-proxy IP  a load balancer or reverse proxy in front of the server: calls it forwards count as
                      from the address its X-Forwarded-For names (sign-in throttles key on it); repeat for several
  --data-dir DIR      keep the data in this folder (embedded PostgreSQL, PGlite; created when missing)
  --database-url URL  keep the data on a PostgreSQL server, such as postgres://user@host:5432/db
                      (default: $DATABASE_URL; without either, the data is in memory)
  --database-schema S the PostgreSQL schema holding the tables (default: public)
  --database-listen-url URL  where the connection that listens for notices of written rows goes, when
                      --database-url's cannot hold a LISTEN (PgBouncer in transaction mode): PostgreSQL
                      directly (default: $DATABASE_LISTEN_URL, else --database-url's)
  --database-prepare on|off  keep statements prepared on each connection to --database-url (default:
                      $DATABASE_PREPARE, else on); off when it goes through PgBouncer in transaction mode
  --database-pool-size N  connections to --database-url this process opens at most, 1 or more
                      (default: $DATABASE_POOL_SIZE, else 10); one more listens for notices of written rows
  --redis-url URL     share realtime events and presence with the other server processes on this
                      PostgreSQL through Redis, such as redis://127.0.0.1:6379 (default: $REDIS_URL, read
                      only with a PostgreSQL server; without either, this process must run alone)
  --redis-prefix P    the prefix of this deployment's Redis keys and channels (default: playfield:)
  --account-creation-limit N  accounts (sign-ups and guests) one client address may create per hour; 0 for no
                      limit, as load tests and test suites need (default: $PLAYFIELD_ACCOUNT_CREATION_LIMIT, else 30)
  --demo              start with a demo creator and a few public experiences to list and join (implies --dev)
  --admin-port N|off  the admin listener's port: /metrics (Prometheus), and the admin API and console; never
                      the public port (default: $PLAYFIELD_ADMIN_PORT, else --port + 1, as 8081 beside 8080;
                      a free one with --port 0); off for none
  --admin-host HOST   the address the admin listener listens on (default: $PLAYFIELD_ADMIN_HOST, else
                      127.0.0.1: this machine alone)
  --log-level LEVEL   JSON log lines on stdout at this level and above: fatal, error, warn, info, debug (a line
                      per request), trace or silent (default: $PLAYFIELD_LOG_LEVEL, else info)
  --shutdown-timeout S  on SIGTERM or Ctrl-C, how long requests, WebSockets and transactions under way
                      may take to finish before they are cut, in seconds (default: 10)
  -h, --help          print this and exit

Environment: PORT, HOST, PLAYFIELD_PUBLIC_URL, PLAYFIELD_ADMIN_PORT, PLAYFIELD_ADMIN_HOST, PLAYFIELD_LOG_LEVEL, DATABASE_URL, DATABASE_LISTEN_URL, DATABASE_PREPARE, DATABASE_POOL_SIZE,
REDIS_URL, and PLAYFIELD_ENV (production, development or test; production when unset). The first line printed
names the mode. Stop it with Ctrl-C or SIGTERM: it stops accepting connections, answers
503 on /readyz, lets what is under way finish, closes WebSockets with 1012 and exits 0; a second Ctrl-C
stops at once.
`;

/** The command line, parsed and checked. */
export interface ServerArgs {
  help: boolean;
  /** Serve (the default), or move a world to or from a file and exit. */
  command:
    | { kind: "serve" }
    | { kind: "export" | "import"; file: string }
    | { kind: "operator"; action: "add"; username: string; role: string; password: string | null }
    | { kind: "operator"; action: "remove"; username: string }
    | { kind: "operator"; action: "list" };
  /** $PLAYFIELD_ADMIN_PASSWORD: the password of the operator `admin`, set at start; null: left as it is (or generated once). */
  adminPassword: string | null;
  port: number;
  host: string;
  /** The address players reach the server at; null: the listening address (loopback only). */
  publicUrl: string | null;
  /** Accounts per client address per hour (0: no limit); null: the server's default. */
  accountCreationLimit: number | null;
  /** Production unless --dev, --demo or PLAYFIELD_ENV say otherwise. */
  environment: Environment;
  webOrigins: string[];
  /** Addresses of the proxies whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  demo: boolean;
  storage: StorageChoice;
  /** The Redis that processes on one PostgreSQL share; null: this process runs alone. */
  redis: RedisChoice | null;
  /** How long a graceful shutdown may take, in ms. */
  shutdownTimeoutMs: number;
  /** The admin listener's port; null: none. */
  adminPort: number | null;
  adminHost: string;
  /** The least severe level of the log lines written. */
  logLevel: LogLevel;
}

/** pino's levels, as --log-level takes them (the server's LOG_LEVELS; not imported, so that --help stays fast). */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The server's mode: its defaults for CORS, payments, hashing cost and checks. */
export type Environment = "production" | "development" | "test";

/** Where the server keeps its data. */
export type StorageChoice =
  | { kind: "memory" }
  | { kind: "data-dir"; dataDir: string }
  | { kind: "postgres"; url: string; schema: string; listenUrl?: string; prepare?: false; poolSize?: number };

/** The Redis several processes share, and the prefix that keeps this deployment's keys apart. */
export interface RedisChoice {
  url: string;
  keyPrefix: string;
}

/** A command line that cannot run: the message says why; the process exits 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

function portOf(text: string, from: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65_535) throw new UsageError(`${from} must be a port from 0 to 65535, got ${JSON.stringify(text)}`);
  return Number(text);
}

function proxyOf(text: string): string {
  if (isIP(text) === 0) throw new UsageError(`--trusted-proxy must be an IP address (the proxy's, as the server sees its connections), got ${JSON.stringify(text)}`);
  return text;
}

function secondsOf(text: string, from: string): number {
  if (!/^\d+(\.\d+)?$/.test(text) || Number(text) > 3600) throw new UsageError(`${from} must be a number of seconds from 0 to 3600, got ${JSON.stringify(text)}`);
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
  const worldCommand = argv[0] === "export" || argv[0] === "import" || argv[0] === "operator" ? argv[0] : null;
  let parsed;
  try {
    parsed = parseArgs({
      args: worldCommand ? argv.slice(1) : [...argv],
      allowPositionals: worldCommand !== null,
      strict: true,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "web-origin": { type: "string", multiple: true },
        "trusted-proxy": { type: "string", multiple: true },
        demo: { type: "boolean" },
        dev: { type: "boolean" },
        "public-url": { type: "string" },
        "account-creation-limit": { type: "string" },
        "data-dir": { type: "string" },
        "database-url": { type: "string" },
        "database-schema": { type: "string" },
        "database-listen-url": { type: "string" },
        "database-prepare": { type: "string" },
        "database-pool-size": { type: "string" },
        "redis-url": { type: "string" },
        "redis-prefix": { type: "string" },
        "shutdown-timeout": { type: "string" },
        "admin-port": { type: "string" },
        "admin-host": { type: "string" },
        "log-level": { type: "string" },
        role: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    // node:util's messages name the option; they end with advice for scripts, not for people.
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, "");
    throw new UsageError(message + npmSwallowedHint(message, env));
  }
  const { values, positionals } = parsed;
  let storage = storageOf(values["data-dir"], values["database-url"], env.DATABASE_URL, values["database-schema"]);
  storage = listenUrlOf(storage, values["database-listen-url"], env.DATABASE_LISTEN_URL);
  storage = prepareOf(storage, values["database-prepare"], env.DATABASE_PREPARE);
  storage = poolSizeOf(storage, values["database-pool-size"], env.DATABASE_POOL_SIZE);
  let command: ServerArgs["command"] = { kind: "serve" };
  if (worldCommand === "operator") {
    command = operatorCommandOf(positionals, values.role, env.PLAYFIELD_OPERATOR_PASSWORD);
    const serving = SERVING_ONLY.find((name) => values[name] !== undefined);
    if (serving) throw new UsageError(`--${serving} is an option of the server, not of operator`);
    if (storage.kind === "memory") throw new UsageError("operator needs --data-dir or --database-url (or DATABASE_URL): operators in memory would be gone when the command ends");
  } else if (values.role !== undefined) {
    throw new UsageError("--role is an option of operator add");
  } else if (worldCommand) {
    if (positionals.length !== 1 || positionals[0] === "") throw new UsageError(`${worldCommand} needs one FILE, such as: playfield-server ${worldCommand} world.jsonl --data-dir ./data`);
    const serving = SERVING_ONLY.find((name) => values[name] !== undefined);
    if (serving) throw new UsageError(`--${serving} is an option of the server, not of ${worldCommand}`);
    if (storage.kind === "memory") {
      throw new UsageError(`${worldCommand} needs --data-dir or --database-url (or DATABASE_URL): ${worldCommand === "export"
        ? "a server in memory keeps nothing once it stops"
        : "a world imported into memory would be gone when the command ends"}`);
    }
    command = { kind: worldCommand, file: positionals[0]! };
  }
  const host = values.host ?? env.HOST ?? "127.0.0.1";
  if (host === "") throw new UsageError("--host needs an address");
  const publicUrl = publicUrlOf(values["public-url"], env.PLAYFIELD_PUBLIC_URL);
  // Refused before any storage opens: a flag's mistake, like any other.
  const refusal = command.kind === "serve" ? publicUrlRefusal(host, publicUrl) : null;
  if (refusal !== null) throw new UsageError(refusal);
  const port = values.port !== undefined ? portOf(values.port, "--port") : env.PORT ? portOf(env.PORT, "PORT") : 8080;
  const adminHost = values["admin-host"] ?? (env.PLAYFIELD_ADMIN_HOST || "127.0.0.1");
  if (adminHost === "") throw new UsageError("--admin-host needs an address");
  const adminPassword = env.PLAYFIELD_ADMIN_PASSWORD || null;
  if (adminPassword !== null) passwordOf(adminPassword, "PLAYFIELD_ADMIN_PASSWORD");
  return {
    help: values.help ?? false,
    command,
    adminPassword,
    port,
    host,
    publicUrl,
    accountCreationLimit: accountCreationLimitOf(values["account-creation-limit"], env.PLAYFIELD_ACCOUNT_CREATION_LIMIT),
    environment: environmentOf(values.dev === true || values.demo === true, env.PLAYFIELD_ENV),
    webOrigins: (values["web-origin"] ?? []).map(originOf),
    trustedProxies: (values["trusted-proxy"] ?? []).map(proxyOf),
    demo: values.demo ?? false,
    storage,
    redis: redisOf(storage, values["redis-url"], env.REDIS_URL, values["redis-prefix"]),
    shutdownTimeoutMs: values["shutdown-timeout"] !== undefined ? secondsOf(values["shutdown-timeout"], "--shutdown-timeout") * 1000 : 10_000,
    adminPort: adminPortOf(values["admin-port"], env.PLAYFIELD_ADMIN_PORT, port),
    adminHost,
    logLevel: logLevelOf(values["log-level"], env.PLAYFIELD_LOG_LEVEL),
  };
}

/** A port or `off`; by default the public port + 1 (Nakama's API and console sit so), a free one beside a free one. */
function adminPortOf(flag: string | undefined, envValue: string | undefined, port: number): number | null {
  const value = flag ?? (envValue || undefined);
  if (value === undefined) return port === 0 ? 0 : port === 65_535 ? 65_534 : port + 1;
  if (value === "off") return null;
  const from = flag !== undefined ? "--admin-port" : "PLAYFIELD_ADMIN_PORT";
  if (!/^\d+$/.test(value) || Number(value) > 65_535) throw new UsageError(`${from} must be a port from 0 to 65535, or off, got ${JSON.stringify(value)}`);
  if (Number(value) === port && port !== 0) throw new UsageError(`${from} must differ from --port (${port}): the admin listener never shares the public port`);
  return Number(value);
}

/** One of pino's levels; info by default. */
function logLevelOf(flag: string | undefined, envValue: string | undefined): LogLevel {
  const value = flag ?? (envValue || undefined);
  if (value === undefined) return "info";
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new UsageError(`${flag !== undefined ? "--log-level" : "PLAYFIELD_LOG_LEVEL"} must be one of ${LOG_LEVELS.join(", ")}, got ${JSON.stringify(value)}`);
}

/** A whole number of 0 or more; the flag over the variable; null: the server's default. */
function accountCreationLimitOf(flag: string | undefined, envValue: string | undefined): number | null {
  const value = flag ?? (envValue || undefined);
  if (value === undefined) return null;
  const from = flag !== undefined ? "--account-creation-limit" : "PLAYFIELD_ACCOUNT_CREATION_LIMIT";
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`${from} must be a whole number of accounts per address per hour, 0 for no limit, got ${JSON.stringify(value)}`);
  return Number(value);
}

/** --dev and --demo choose development; else PLAYFIELD_ENV; else production. */
function environmentOf(dev: boolean, envValue: string | undefined): Environment {
  if (dev) return "development";
  if (envValue === undefined || envValue === "") return "production";
  if (envValue === "production" || envValue === "development" || envValue === "test") return envValue;
  throw new UsageError(`PLAYFIELD_ENV must be production, development or test, got ${JSON.stringify(envValue)}`);
}

/** The public URL from the flag or the environment, by the core's rule. */
function publicUrlOf(flag: string | undefined, envValue: string | undefined): string | null {
  const text = flag ?? (envValue || undefined);
  if (text === undefined) return null;
  const url = normalizePublicUrl(text);
  if (url === null) throw new UsageError(`${flag !== undefined ? "--public-url" : "PLAYFIELD_PUBLIC_URL"} must be ${PUBLIC_URL_RULE}; got ${JSON.stringify(text)}`);
  return url;
}

/**
 * `npm start --port 9000` (without `--`): npm takes `--port` as a setting
 * of its own (npm_config_port=true) and passes `9000` on alone. Say so.
 */
function npmSwallowedHint(message: string, env: Record<string, string | undefined>): string {
  const stray = /^Unexpected argument '(.*?)'/s.exec(message)?.[1];
  if (stray === undefined || env.npm_lifecycle_event === undefined) return "";
  const taken = Object.keys(env).find((key) => key.startsWith("npm_config_") && env[key] === "true" && SERVER_FLAGS.has(key.slice(11).replaceAll("_", "-")));
  if (taken === undefined) return "";
  const flag = `--${taken.slice(11).replaceAll("_", "-")}`;
  return `. npm took ${flag} ${stray} as its own setting: put -- before the server's options, as in npm ${env.npm_lifecycle_event} -- ${flag} ${stray}`;
}

/** Options of a serving server, refused with export, import and operator. */
const SERVING_ONLY = ["port", "host", "public-url", "account-creation-limit", "dev", "web-origin", "demo", "shutdown-timeout", "redis-url", "redis-prefix",
  "admin-port", "admin-host", "log-level"] as const;

/** The flags that take a value (those npm can take for itself). */
const SERVER_FLAGS = new Set(["port", "host", "public-url", "account-creation-limit", "web-origin", "trusted-proxy", "data-dir", "database-url", "database-schema", "database-listen-url",
  "database-prepare", "database-pool-size", "redis-url", "redis-prefix", "shutdown-timeout", "admin-port", "admin-host", "log-level"]);

/** The flags choose; DATABASE_URL counts only when neither is given. */
function storageOf(dataDir: string | undefined, databaseUrl: string | undefined, envUrl: string | undefined, schema: string | undefined): StorageChoice {
  if (dataDir !== undefined && databaseUrl !== undefined) throw new UsageError("--data-dir and --database-url cannot be used together: choose where the data lives");
  if (dataDir !== undefined) {
    if (schema !== undefined) throw new UsageError("--database-schema goes with --database-url, not --data-dir");
    if (dataDir === "") throw new UsageError("--data-dir needs a folder");
    return { kind: "data-dir", dataDir };
  }
  const url = databaseUrl ?? (envUrl || undefined);
  if (url === undefined) {
    if (schema !== undefined) throw new UsageError("--database-schema needs a PostgreSQL server: give --database-url or DATABASE_URL");
    return { kind: "memory" };
  }
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new UsageError(`--database-schema must be a lowercase SQL name (a-z, 0-9, _), got ${JSON.stringify(schema)}`);
  checkPostgresUrl(url, databaseUrl !== undefined ? "--database-url" : "DATABASE_URL");
  return { kind: "postgres", url, schema: schema ?? "public" };
}

/** The listening connection's URL: with a PostgreSQL server only; DATABASE_LISTEN_URL counts only then. */
function listenUrlOf(storage: StorageChoice, flagUrl: string | undefined, envUrl: string | undefined): StorageChoice {
  const url = flagUrl ?? (storage.kind === "postgres" ? envUrl || undefined : undefined);
  if (url === undefined) return storage;
  if (storage.kind !== "postgres") throw new UsageError("--database-listen-url goes with a PostgreSQL server: give --database-url (or DATABASE_URL) too");
  checkPostgresUrl(url, flagUrl !== undefined ? "--database-listen-url" : "DATABASE_LISTEN_URL");
  return { ...storage, listenUrl: url };
}

/** Whether statements stay prepared: with a PostgreSQL server only; DATABASE_PREPARE counts only then. */
function prepareOf(storage: StorageChoice, flag: string | undefined, envValue: string | undefined): StorageChoice {
  const value = flag ?? (storage.kind === "postgres" ? envValue || undefined : undefined);
  if (value === undefined) return storage;
  const from = flag !== undefined ? "--database-prepare" : "DATABASE_PREPARE";
  if (storage.kind !== "postgres") throw new UsageError(`${from} goes with a PostgreSQL server: give --database-url (or DATABASE_URL) too`);
  if (value !== "on" && value !== "off") throw new UsageError(`${from} must be on or off, got ${JSON.stringify(value)}`);
  return value === "on" ? storage : { ...storage, prepare: false };
}

/** How many connections the pool opens at most: with a PostgreSQL server only; DATABASE_POOL_SIZE counts only then. */
function poolSizeOf(storage: StorageChoice, flag: string | undefined, envValue: string | undefined): StorageChoice {
  const value = flag ?? (storage.kind === "postgres" ? envValue || undefined : undefined);
  if (value === undefined) return storage;
  const from = flag !== undefined ? "--database-pool-size" : "DATABASE_POOL_SIZE";
  if (storage.kind !== "postgres") throw new UsageError(`${from} goes with a PostgreSQL server: give --database-url (or DATABASE_URL) too`);
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${from} must be a whole number of 1 or more, got ${JSON.stringify(value)}`);
  return { ...storage, poolSize: Number(value) };
}

function checkPostgresUrl(url: string, from: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    // refused below
  }
  if (protocol !== "postgres:" && protocol !== "postgresql:") throw new UsageError(`${from} must be a postgres:// or postgresql:// URL, got ${JSON.stringify(redact(url))}`);
}

/** Redis serves processes that share a PostgreSQL; REDIS_URL counts only then, so an exported one never stops `npm start`. */
function redisOf(storage: StorageChoice, flagUrl: string | undefined, envUrl: string | undefined, prefix: string | undefined): RedisChoice | null {
  const url = flagUrl ?? (storage.kind === "postgres" ? envUrl || undefined : undefined);
  if (url === undefined) {
    if (prefix !== undefined) throw new UsageError("--redis-prefix goes with --redis-url (or REDIS_URL)");
    return null;
  }
  if (storage.kind !== "postgres") {
    throw new UsageError("--redis-url shares realtime events and presence between server processes on one PostgreSQL server: give --database-url (or DATABASE_URL) too");
  }
  const from = flagUrl !== undefined ? "--redis-url" : "REDIS_URL";
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    // refused below
  }
  if (protocol !== "redis:" && protocol !== "rediss:") throw new UsageError(`${from} must be a redis:// or rediss:// URL, got ${JSON.stringify(redact(url))}`);
  if (prefix !== undefined && !/^[A-Za-z0-9_:.-]{1,64}$/.test(prefix)) {
    throw new UsageError(`--redis-prefix must be 1 to 64 letters, digits or _ : . -, got ${JSON.stringify(prefix)}`);
  }
  return { url, keyPrefix: prefix ?? "playfield:" };
}

/** A URL without its password, for messages: up to the last `@`, as a password may hold one (`p@ss`) unescaped. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]*):.*@/s, "//$1:***@");
}

/** Operators' roles, as the admin API's descriptors name them. */
const OPERATOR_ROLES = ["admin", "moderator", "support", "viewer"];

function passwordOf(password: string, name: string): string {
  if (password.length < 8 || password.length > 200) throw new UsageError(`${name}: 8 to 200 characters`);
  return password;
}

/** `operator add USERNAME --role ROLE`, `operator remove USERNAME` or `operator list`. */
function operatorCommandOf(positionals: readonly string[], role: string | undefined, password: string | undefined): ServerArgs["command"] {
  const [action, username, ...rest] = positionals;
  const usage = "operator add USERNAME --role ROLE, operator remove USERNAME, or operator list";
  if (rest.length > 0) throw new UsageError(`too many arguments: ${usage}`);
  if (action === "list") {
    if (username !== undefined) throw new UsageError("operator list takes no USERNAME");
    return { kind: "operator", action: "list" };
  }
  if ((action !== "add" && action !== "remove") || !username) throw new UsageError(`expected ${usage}`);
  if (action === "remove") {
    if (role !== undefined) throw new UsageError("--role is an option of operator add");
    return { kind: "operator", action, username };
  }
  if (role === undefined || !OPERATOR_ROLES.includes(role)) throw new UsageError(`operator add needs --role: one of ${OPERATOR_ROLES.join(", ")}`);
  return { kind: "operator", action, username, role, password: password ? passwordOf(password, "PLAYFIELD_OPERATOR_PASSWORD") : null };
}

import { DEFAULT_DATASTORE_LIMITS, DEFAULT_LIFETIMES, normalizePublicUrl, PUBLIC_URL_RULE, type ChatFilter, type Clock, type DatastoreLimits, type RateRule, type Storage, type TokenLifetimes } from "@playfield/core";
import type { SigningKey } from "./crypto/signing-key.js";
import type { Logger } from "./observe/logger.js";
import type { ServerMetrics } from "./observe/server-metrics.js";
import type { ReadinessCheck } from "./lifecycle/readiness.js";
import type { BlobStore } from "./ports/blob-store.js";
import type { IdGenerator } from "./ports/ids.js";
import type { PasswordHasher } from "./ports/password-hasher.js";
import type { PaymentProvider } from "./ports/payments/index.js";
import type { RealtimeHub } from "./ports/realtime-hub.js";
import type { PresenceDirectory } from "./ports/presence-directory.js";
import type { TokenSigner } from "./ports/token-signer.js";
import type { ServerConfig, SignInThrottle } from "./server-deps.js";
import { resolveHashingLimits, type HashingLimits } from "./crypto/hashing-gate.js";
import { trustedProxySet } from "./rpc/client-address.js";
import { resolveChatRate } from "./services/chat/rate.js";
import type { SessionSettings } from "./services/session/settings.js";

/**
 * Options of a Playfield server. Storage is the one part without a default:
 * where the data lives is a choice a deployment makes. Every other part is
 * replaceable, and every default is the one safe in production.
 */
export interface ServerOptions {
  /** Where every record lives: `createMemoryStorage()`, or an adapter such as @playfield/storage-postgres. */
  storage: Storage;
  /** Default: the wall clock. */
  clock?: Clock;
  /** Default: node:crypto Ed25519 with the given `keys`, or one key generated at start. */
  signer?: TokenSigner;
  /** Signing keys for the default signer (the first signs, any verifies). */
  keys?: SigningKey[];
  /** Default: scrypt on node:crypto's thread pool at DEFAULT_SCRYPT_COST. */
  hasher?: PasswordHasher;
  /** Default: random ids and secrets from Web Crypto. */
  ids?: IdGenerator;
  /** Default: the in-process hub. */
  realtime?: RealtimeHub;
  /** Which users are connected on any process. Default: this process only; several processes share one (@playfield/realtime-redis). */
  presence?: PresenceDirectory;
  /** Where uploaded blobs' bytes live. Default: the storage's `blob_bytes` table, so every server on one storage serves them and they last as long as it does. */
  blobs?: BlobStore;
  /** Payment providers; each replaces the default of its id (only `sandbox` is configured by default, outside production). */
  payments?: readonly PaymentProvider[];
  /** Edge/dedicated allocator (default: an address template), peer signalling URL (default: `ws://<Host>/realtime`), silence limit (default 60 s). */
  sessions?: Partial<SessionSettings>;
  /** Chat text filter. Default: a small deny-list masked for under-13 senders and readers (docs/chat.md). */
  chatFilter?: ChatFilter;
  /** Chat messages per user: a burst of 10, then one every 1000 ms; `null` turns it off. Default off when `environment` is "test" (docs/chat.md). */
  chatRate?: Partial<RateRule> | null;
  /** Default "production". */
  environment?: ServerConfig["environment"];
  lifetimes?: Partial<TokenLifetimes>;
  webOrigins?: string[];
  /**
   * Password-guessing budgets (docs/identity.md): per username and client address 5 failures per 15 minutes;
   * per username 100 per 15 minutes, then each attempt waits 1 s, 2 s, 4 s … up to 60 s after the previous;
   * per client address 50 failed sign-ins per 15 minutes.
   */
  signInThrottle?: Partial<SignInThrottle>;
  /**
   * Accounts SignUp and StartGuest create per client address per hour; 0 for no limit. Default
   * 30 (DEFAULT_ACCOUNT_CREATION_LIMIT), 0 when `environment` is "test" (test suites create thousands from one address).
   */
  accountCreationLimit?: number;
  /**
   * Password hashes at once (`concurrency`) and calls that may wait for one (`queue`); a call past both is
   * refused at once with `unavailable`. Default 2 at once and 4 waiting (DEFAULT_HASHING_LIMITS); `null` (the default when
   * `environment` is "test") bounds nothing.
   */
  passwordHashing?: Partial<HashingLimits> | null;
  /**
   * Addresses (IPv4 or IPv6, exact) of the load balancers or reverse proxies in front of the server: a call
   * whose connection comes from one is taken to be from the address its `X-Forwarded-For` names, so the
   * per-address sign-in throttle counts each caller, not the proxy. Default none: the socket's address.
   */
  trustedProxies?: readonly string[];
  /**
   * The address players reach this server at, such as `https://play.example` (a path prefix is kept): the realtime,
   * signalling and checkout URLs are built from it. Default: the listening address when `listen` binds a loopback
   * host (it refuses any other host without one); relative URLs for a server called in process.
   */
  publicUrl?: string;
  /** Check every answer against its schema: on except in production (a server bug becomes `internal`, not a malformed answer). */
  validateResponses?: boolean;
  /** Opens GET /admin/reports with `Authorization: Bearer <operatorToken>`, in every environment; without one the page does not exist (404). */
  operatorToken?: string;
  /** Datastore limits; default 300 + 40 × players calls a minute, 500 MB + 1 MB × players seen, 30 days of old values. */
  datastore?: Partial<DatastoreLimits>;
  /** Dependencies `/readyz` checks besides the storage (which it always checks), such as a Redis connection. Default none. */
  readinessChecks?: readonly ReadinessCheck[];
  /**
   * Called with every failure that answered `internal` (with its request's id), and every failure of background work
   * (presence announcements, session sweeps, realtime handlers). Default: an `error` line of `log`, else console.error.
   */
  onInternalError?: (error: unknown, context?: { requestId?: string }) => void;
  /**
   * Where per-call metrics go (calls, latency, realtime, storage): `createPrometheusMetrics()` of
   * `@playfield/server/node`, served at `/metrics` on the admin listener. Default none: nothing measured.
   */
  metrics?: ServerMetrics;
  /**
   * Where log lines go: a pino logger (or any with its methods), such as `createLogger("debug")` of
   * `@playfield/server/node`. One line per request at `debug`, failures at `warn` and `error`, each with its
   * request id (docs/operators.md, "Logs"). Default none: the server writes no line.
   */
  log?: Logger;
}

/**
 * An http(s) URL without query, fragment or credentials (they would be handed to every player), kept without its
 * trailing slash. The command checks the same before importing the server (cli/src/server-args.ts), so --help stays fast.
 */
function publicUrlOf(text: string): string {
  const url = normalizePublicUrl(text);
  if (url === null) throw new TypeError(`publicUrl must be ${PUBLIC_URL_RULE}; got ${JSON.stringify(text)}`);
  return url;
}

/** The default password-guessing budgets (docs/identity.md). */
export const DEFAULT_SIGN_IN_THROTTLE: Readonly<SignInThrottle> = Object.freeze({
  perUsernameAndAddress: { limit: 5, windowMs: 15 * 60_000 },
  perUsername: { limit: 100, windowMs: 15 * 60_000, firstDelayMs: 1000, maxDelayMs: 60_000 },
  perAddress: { limit: 50, windowMs: 15 * 60_000 },
});

/** Accounts per client address per hour, by default: a household or a classroom behind one address, not a script. */
export const DEFAULT_ACCOUNT_CREATION_LIMIT = 30;

function resolveAccountCreationLimit(option: number | undefined, environment: ServerConfig["environment"]): number {
  if (option === undefined) return environment === "test" ? 0 : DEFAULT_ACCOUNT_CREATION_LIMIT;
  if (!Number.isSafeInteger(option) || option < 0) throw new TypeError(`accountCreationLimit: a whole number, 0 for no limit, got ${option}`);
  return option;
}

/** The configuration a server runs with: the options over the defaults. */
export function resolveConfig(options: Omit<ServerOptions, "storage">): ServerConfig {
  const environment = options.environment ?? "production";
  return {
    environment,
    lifetimes: { ...DEFAULT_LIFETIMES, ...options.lifetimes },
    webOrigins: options.webOrigins ?? [],
    signInThrottle: { ...DEFAULT_SIGN_IN_THROTTLE, ...options.signInThrottle },
    accountCreationLimit: resolveAccountCreationLimit(options.accountCreationLimit, environment),
    passwordHashing: resolveHashingLimits(options.passwordHashing, environment),
    handoffSeconds: 60,
    validateResponses: options.validateResponses ?? environment !== "production",
    datastore: { ...DEFAULT_DATASTORE_LIMITS, ...options.datastore },
    chatRate: resolveChatRate(options.chatRate, environment),
    trustedProxies: trustedProxySet(options.trustedProxies ?? []),
    publicUrl: options.publicUrl === undefined ? null : publicUrlOf(options.publicUrl),
  };
}

import type { ChatFilter, Clock, DatastoreLimits, RateRule, SlowdownRule, Storage, TokenLifetimes, ThrottleRule } from "@playfield/core";
import type { HashingGate, HashingLimits } from "./crypto/hashing-gate.js";

import type { IdGenerator } from "./ports/ids.js";
import type { PasswordHasher } from "./ports/password-hasher.js";
import type { TokenSigner } from "./ports/token-signer.js";
import type { RealtimeHub } from "./ports/realtime-hub.js";
import type { PresenceDirectory } from "./ports/presence-directory.js";
import type { BlobStore } from "./ports/blob-store.js";
import type { PaymentProvider } from "./ports/payments/payment-provider.js";
import type { SessionSettings } from "./services/session/settings.js";
import type { Sequence } from "./services/economy/ledger.js";
import type { ServerMetrics } from "./observe/server-metrics.js";
import type { Logger } from "./observe/logger.js";


/** What the server is configured with. Every value has a documented default. */
export interface ServerConfig {
  environment: "development" | "test" | "production";
  lifetimes: TokenLifetimes;
  /** Web origins that may receive a handoff code (main host, studio host, extra origins). */
  webOrigins: string[];
  signInThrottle: SignInThrottle;
  /** Accounts SignUp and StartGuest create per client address per hour; 0: no limit. */
  accountCreationLimit: number;
  /** Password hashes at once, and calls waiting for one; null: unbounded. */
  passwordHashing: HashingLimits | null;
  handoffSeconds: number;
  /** Validate every answer against its schema (on by default; costs a few µs). */
  validateResponses: boolean;
  /** Datastore request budget, stored-bytes cap and old-value retention (DESIGN.md defaults). */
  datastore: DatastoreLimits;
  /** Chat messages per user: a burst, then one every intervalMs (docs/chat.md); null: no limit. */
  chatRate: RateRule | null;
  /** Addresses of the load balancers or proxies whose `X-Forwarded-For` names the caller (sign-in throttles key on it); none by default. */
  trustedProxies: ReadonlySet<string>;
  /**
   * The address players reach this server at (`https://play.example`), which every URL the server hands out
   * (realtime, signalling, checkout) is built from — never a request's `Host`. Null until known: `listen` sets
   * the bound address on loopback; a server called in process hands out URLs relative to itself.
   */
  publicUrl: string | null;
}

/** The password-guessing budgets (docs/identity.md, "Password throttling"). */
export interface SignInThrottle {
  /** Failures of one username from one client address; password re-checks of an account count here too. */
  perUsernameAndAddress: ThrottleRule;
  /** All failures of one username from anywhere: past the limit, attempts are slowed, not refused outright. */
  perUsername: SlowdownRule;
  /** Failed sign-ins from one client address, whatever the username. */
  perAddress: ThrottleRule;
}

/** The injected parts a service implementation uses. */
export interface ServerDeps {
  clock: Clock;
  storage: Storage;
  signer: TokenSigner;
  /** Password hashing, at most `passwordHashing.concurrency` at once. */
  hasher: PasswordHasher;
  /** Admits a call that hashes passwords, or refuses it at once when the hashing queue is full. */
  hashing: HashingGate;
  ids: IdGenerator;
  /** Delivery of realtime events to users' connections. */
  realtime: RealtimeHub;
  /** Which users are connected on any server process (presence). */
  presence: PresenceDirectory;
  /** Uploaded blobs' bytes, by SHA-256. */
  blobs: BlobStore;
  /** Payment methods, configured or not, in the order ListCreditPacks lists them. */
  payments: readonly PaymentProvider[];
  /** Game-server allocator, signalling address, silence limit. */
  sessions: SessionSettings;
  /** Rewrites chat texts for their readers (masks words for under-13 senders and readers). */
  chatFilter: ChatFilter;
  config: ServerConfig;
  /** This server's `seq` numbers, which order economy rows (services/economy/ledger.ts). */
  sequence: Sequence;
  /** Hashes an opaque token for storage (SHA-256, hex). */
  hashSecret(secret: string): string;
  /** Told every failure no caller hears of: calls that answered `internal` (with the request's id), and background work (announcements, sweeps). */
  onInternalError(error: unknown, context?: { requestId?: string }): void;
  /** Where realtime and storage figures go; absent: nothing is measured. */
  metrics?: ServerMetrics;
  /** Where log lines go; absent: none is written. */
  log?: Logger;
}

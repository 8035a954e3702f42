import { fail, type StorageSnapshot } from "@playfield/core";
import {
  createMemoryStorage, createMovableClock, createScryptHasher, createServer, FAST_TEST_COST,
  type MovableClock, type Server, type ServerOptions, type Storage,
} from "@playfield/server";
import { createSeeder, type Seeder } from "./testing/seed.js";

/**
 * Options of an in-memory server: those of `createServer`, with storage in
 * memory unless given and the defaults of a test suite.
 */
export interface MemoryServerOptions extends Omit<ServerOptions, "storage" | "clock"> {
  /** Default: a new in-memory storage. */
  storage?: Storage;
  /** Default: a movable real-time clock (`server.clock.advance(ms)` in tests). */
  clock?: MovableClock;
}

/** An in-memory Playfield server: the server plus what tests need around it. */
export interface MemoryServer extends Server {
  clock: MovableClock;
  /** Seed helpers: users, guests, game tokens. */
  seed: Seeder;
  /** Drops every record (keys and configuration stay). */
  reset(): Promise<void>;
  /**
   * Copies every record and the clock's time: seed a world once, then
   * `restore` it before each test instead of seeding again. Needs a storage
   * that can copy its data (the memory storage can); otherwise it rejects
   * with `unimplemented`.
   */
  snapshot(): Promise<ServerSnapshot>;
  /** Puts back every record and the clock's time of a snapshot (of this server or another with the same keys). */
  restore(snapshot: ServerSnapshot): Promise<void>;
}

/** What `snapshot` copied: opaque; restore it any number of times. */
export interface ServerSnapshot {
  readonly storage: StorageSnapshot;
  readonly clockMs: number;
}

/**
 * Creates an in-memory server in a few milliseconds, with no port: pass
 * `server.fetch` to the client, to msw, or to `startServer` to listen. It is
 * `createServer` with test defaults: memory storage, a movable clock, the
 * "test" environment and, there, a fast scrypt cost.
 *
 * @example
 * const server = createMemoryServer();
 * const client = createClient({ baseUrl: "http://playfield.test", fetch: server.fetch });
 */
export function createMemoryServer(options: MemoryServerOptions = {}): MemoryServer {
  const environment = options.environment ?? "test";
  const clock = options.clock ?? createMovableClock();
  const storage = options.storage ?? createMemoryStorage();
  const hasher = options.hasher ?? createScryptHasher(environment === "test" ? { cost: FAST_TEST_COST } : {});
  const server = createServer({ ...options, environment, clock, storage, hasher });
  return {
    ...server,
    clock,
    seed: createSeeder(server.deps),
    reset: () => storage.clear(),
    async snapshot() {
      if (!storage.snapshot) throw fail.unimplemented("snapshot: this server's storage cannot copy its data");
      return { storage: await storage.snapshot(), clockMs: clock.now() };
    },
    async restore(saved) {
      if (!storage.restore) throw fail.unimplemented("restore: this server's storage cannot copy its data");
      await storage.restore(saved.storage);
      clock.set(saved.clockMs);
    },
  };
}

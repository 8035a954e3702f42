import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { Redis } from "ioredis";
import type { PresenceDirectory, RealtimePubSub } from "@playfield/server";
import { createRedisChannels } from "./redis-channels.js";
import { createRedisPresence } from "./redis-presence.js";
import { createRedisPubSub } from "./redis-pubsub.js";

/** Options of `connectRedisRealtime`. */
export interface RedisRealtimeOptions {
  /** The Redis server, such as `redis://127.0.0.1:6379` (`rediss://` for TLS; a password in the URL). */
  url: string;
  /** Prefix of every key and channel; processes of one deployment share it, two deployments on one Redis differ. Default `playfield:`. */
  keyPrefix?: string;
  /** How long a process's heartbeat lives: its users turn offline this long (plus one heartbeat) after it dies. Default 5 000 ms. */
  presenceTtlMs?: number;
  /** How often a process renews its heartbeat and sweeps out dead processes. Default 1 000 ms. */
  heartbeatMs?: number;
  /** How long connecting at start may take. Default 10 000 ms. */
  connectTimeoutMs?: number;
  /** Told of failures no caller hears of: a lost connection (once per outage), a publish or heartbeat that failed. Default console.error. */
  onError?: (error: unknown) => void;
}

/** The Redis adapters of one server process, on two connections. */
export interface RedisRealtime {
  /** The realtime pub/sub: pass to `createRealtimeHub({ pubsub })`. */
  pubsub: RealtimePubSub;
  /** The presence directory: pass as the server's `presence` option. */
  presence: PresenceDirectory;
  /** This process's id in Redis (host, pid and a random part). */
  processId: string;
  /** Resolves when Redis answers PING within `timeoutMs` (default 1 000) and the subscriber connection is up: a readiness check. */
  ping(timeoutMs?: number): Promise<void>;
  /** Removes this process from the presence directory (its users' friends are told at once) and closes both connections. */
  close(): Promise<void>;
}

/**
 * Connects a server process to Redis: one command connection (publishes,
 * presence counts, heartbeats) and one subscriber connection (every topic
 * this process listens to). Resolves once both are up and the first
 * heartbeat is written; rejects with the reason when Redis cannot be
 * reached. After that, ioredis reconnects by itself (waits growing to 2 s);
 * see docs/deploy.md for what a Redis outage costs.
 *
 * @example
 * const redis = await connectRedisRealtime({ url: "redis://127.0.0.1:6379" });
 * const server = createServer({ storage, realtime: createRealtimeHub({ pubsub: redis.pubsub }), presence: redis.presence });
 */
export async function connectRedisRealtime(options: RedisRealtimeOptions): Promise<RedisRealtime> {
  const prefix = options.keyPrefix ?? "playfield:";
  const onError = options.onError ?? ((error: unknown) => console.error("playfield: redis:", error));
  const processId = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  let started = false;
  /** Why connecting failed: ioredis rejects `connect()` with "Connection is closed." and emits the cause. */
  const failures: Error[] = [];
  const open = (role: string) => {
    const client = new Redis(options.url, { lazyConnect: true, connectionName: `playfield:${processId}:${role}`, connectTimeout: options.connectTimeoutMs ?? 10_000 });
    // One report per outage, not one per reconnect attempt; before the start the failure is thrown instead.
    let reported = false;
    client.on("error", (error: Error) => {
      if (!started) failures.push(error);
      if (!started || reported) return;
      reported = true;
      onError(new Error(`the ${role} connection to Redis failed: ${error.message}`));
    });
    client.on("ready", () => { reported = false; });
    return client;
  };
  const publisher = open("commands");
  const subscriber = open("subscriber");
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
  } catch (error) {
    publisher.disconnect();
    subscriber.disconnect();
    const cause = failures[0] ?? error;
    throw new Error(`cannot connect to Redis: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
  const channels = createRedisChannels(subscriber, onError);
  const presence = createRedisPresence({
    redis: publisher, channels, prefix, processId, onError, ttlMs: options.presenceTtlMs ?? 5_000, heartbeatMs: options.heartbeatMs ?? 1_000,
  });
  await presence.start();
  started = true;
  let closed = false;
  return {
    pubsub: createRedisPubSub(publisher, channels, prefix, onError),
    presence,
    processId,
    async ping(timeoutMs = 1_000) {
      if (closed) throw new Error("the connections to Redis are closed");
      if (subscriber.status !== "ready") throw new Error(`the subscriber connection to Redis is ${subscriber.status}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not answer PING within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([publisher.ping(), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await presence.leave().catch(onError);
      // QUIT after whatever is queued; a connection that cannot say it is cut.
      await Promise.all([publisher, subscriber].map((client) => client.quit().catch(() => client.disconnect())));
    },
  };
}

import type { Redis } from "ioredis";
import type { PresenceDirectory, PresenceListener } from "@playfield/server";
import { presenceScripts } from "./presence-scripts.js";
import type { RedisChannels } from "./redis-channels.js";

/*
 * The server's presence directory on Redis. Each process counts its own
 * connections per user in Redis (presence-scripts.ts has the keys) and
 * renews a heartbeat key that expires after `ttlMs`; a user is online while
 * some process with a live heartbeat counts a connection of theirs. On
 * every heartbeat a process also sweeps out processes whose heartbeat
 * expired (kill -9, a lost machine) and tells every process their users'
 * presence may have changed: a dead process's users are offline for
 * everyone within ttlMs + heartbeatMs of its last beat. Changes travel on
 * the channel `<prefix>presence` on the command connection, after the
 * writes they follow, so a process that hears of one reads it.
 */

export interface RedisPresenceOptions {
  /** The command connection: counts, heartbeats and broadcasts, in order. */
  redis: Redis;
  channels: RedisChannels;
  prefix: string;
  /** This process's id, unique among the processes sharing the prefix. */
  processId: string;
  ttlMs: number;
  heartbeatMs: number;
  onError: (error: unknown) => void;
}

/** The directory, with the heartbeat it runs. */
export interface RedisPresence extends PresenceDirectory {
  /** Beats once (this process is alive from then on), then every heartbeatMs. */
  start(): Promise<void>;
  /** Stops beating and removes this process and its connections at once, telling the other processes. */
  leave(): Promise<void>;
}

/** Users per restore script call: bounds one call's arguments. */
const RESTORE_CHUNK = 500;

export function createRedisPresence(options: RedisPresenceOptions): RedisPresence {
  const { redis, channels, prefix, processId, ttlMs, heartbeatMs, onError } = options;
  const scripts = presenceScripts(redis);
  const keys = {
    process: `${prefix}process:${processId}`,
    processes: `${prefix}processes`,
    members: `${prefix}process-users:${processId}`,
    online: (userId: string) => `${prefix}online:${userId}`,
  };
  const channel = `${prefix}presence`;
  /** This process's connections per user: what it writes again when its heartbeat had expired. */
  const counts = new Map<string, number>();
  const listeners = new Set<PresenceListener>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let beating: Promise<void> | null = null;

  const tell = (userIds: string[]) => {
    for (const listener of listeners) listener(userIds);
  };
  const stopListening = channels.listen(channel, (message) => {
    const { from, users } = JSON.parse(message) as { from: string; users: string[] };
    if (from !== processId) tell(users);
  });

  function broadcast(userIds: string[]): void {
    if (userIds.length === 0) return;
    redis.publish(channel, JSON.stringify({ from: processId, users: userIds })).catch(onError);
  }

  async function restore(): Promise<void> {
    const entries = [...counts];
    for (let i = 0; i < entries.length; i += RESTORE_CHUNK) {
      await scripts.restore([], [prefix, processId, ...entries.slice(i, i + RESTORE_CHUNK).flat()]);
    }
    const users = entries.map(([userId]) => userId);
    broadcast(users);
    tell(users);
  }

  async function beat(): Promise<void> {
    const alive = await scripts.beat([keys.process, keys.processes], [processId, ttlMs]);
    // Expired while this process lives (a stall longer than the TTL, Redis unreachable or restarted empty):
    // another process may have swept its users out, so it writes them again and says so.
    if (alive === 0 && counts.size > 0) await restore();
    const gone = (await scripts.sweep([keys.processes], [prefix])) as string[];
    if (gone.length > 0) {
      const users = [...new Set(gone)];
      broadcast(users);
      tell(users);
    }
  }

  /** One beat at a time: a slow one is not overlapped by the next. */
  function tick(): void {
    if (beating) return;
    beating = beat().catch(onError).finally(() => { beating = null; });
  }

  return {
    async connected(userId) {
      counts.set(userId, (counts.get(userId) ?? 0) + 1);
      await scripts.connect([keys.online(userId), keys.members], [processId, userId]);
    },
    async disconnected(userId) {
      const left = (counts.get(userId) ?? 0) - 1;
      if (left > 0) counts.set(userId, left);
      else counts.delete(userId);
      await scripts.disconnect([keys.online(userId), keys.members], [processId, userId]);
    },
    async onlineAmong(userIds) {
      if (userIds.length === 0) return new Set();
      const answers = (await scripts.onlineAmong(userIds.map(keys.online), [prefix])) as number[];
      return new Set(userIds.filter((_, i) => answers[i] === 1));
    },
    broadcast,
    onChanged(listener) {
      // Each call gets its own entry, so the returned function removes only it.
      const entry: PresenceListener = (userIds) => listener(userIds);
      listeners.add(entry);
      return () => { listeners.delete(entry); };
    },
    async start() {
      await beat();
      timer = setInterval(tick, heartbeatMs);
      timer.unref();
    },
    async leave() {
      if (timer) clearInterval(timer);
      timer = null;
      await beating;
      stopListening();
      // Without its heartbeat the process is swept at once; whoever sweeps tells everyone.
      await redis.del(keys.process);
      const gone = (await scripts.sweep([keys.processes], [prefix])) as string[];
      broadcast([...new Set(gone)]);
      counts.clear();
    },
  };
}

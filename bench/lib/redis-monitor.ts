/*
 * Counts the Redis commands of one deployment, told apart by its key
 * prefix, through MONITOR: other jobs share this Redis, so INFO
 * commandstats would count theirs too. Commands a Lua script runs are
 * counted apart from the commands clients send. MONITOR slows Redis down
 * for everyone: the benches count with it and time without it.
 */
import { Redis } from "ioredis";

/** Commands seen under one prefix so far. */
export interface RedisCounts {
  /** Sent by clients (a script call, EVALSHA, counts once). */
  commands: number;
  /** Run by scripts inside those calls. */
  inScripts: number;
  publishes: number;
}

export interface RedisMonitor {
  counts(prefix: string): RedisCounts;
  close(): Promise<void>;
}

/** Starts counting the commands whose arguments hold a key or channel under one of `prefixes`. */
export async function redisMonitor(url: string, prefixes: readonly string[]): Promise<RedisMonitor> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  const counts = new Map(prefixes.map((prefix) => [prefix, { commands: 0, inScripts: 0, publishes: 0 }]));
  const monitor = await client.monitor();
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    for (const [prefix, count] of counts) {
      if (!args.some((arg) => arg.startsWith(prefix))) continue;
      if (source === "lua") count.inScripts += 1;
      else count.commands += 1;
      if (args[0]?.toUpperCase() === "PUBLISH") count.publishes += 1;
    }
  });
  // MONITOR is in effect once Redis answered it; a command after it shows up in the stream.
  await client.ping();
  return {
    counts: (prefix) => ({ ...counts.get(prefix)! }),
    async close() {
      monitor.disconnect();
      await client.quit();
    },
  };
}

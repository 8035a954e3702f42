import type { Redis } from "ioredis";

/*
 * The presence directory's Lua scripts: each runs atomically in Redis, so
 * two processes sweeping at once cannot both report the same dead
 * process's users. Keys (P = the key prefix):
 *   P process:<id>         a process's heartbeat, expiring after the TTL
 *   P processes            the ids of every process that has beaten
 *   P online:<user>        hash: process id -> that process's connections of the user
 *   P process-users:<id>   the users a process has connections of
 * The scripts build key names from the prefix, which Redis Cluster does
 * not allow: the directory needs one Redis server (or a primary with
 * replicas), which is what a deployment of a few processes runs.
 */

/** Runs a script with these keys and arguments. */
export type Script = (keys: string[], args: (string | number)[]) => Promise<unknown>;

/** One connection of a user opened on a process. */
const CONNECT = `
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('SADD', KEYS[2], ARGV[2])
return 1`;

/** One closed: the process's field and membership go with its last connection of the user. */
const DISCONNECT = `
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('SREM', KEYS[2], ARGV[2])
end
return 1`;

/** For each user's key, 1 when a process whose heartbeat is alive holds a connection of the user, else 0. */
const ONLINE_AMONG = `
local answers = {}
for k = 1, #KEYS do
  answers[k] = 0
  local fields = redis.call('HGETALL', KEYS[k])
  for i = 1, #fields, 2 do
    if tonumber(fields[i + 1]) > 0 and redis.call('EXISTS', ARGV[1] .. 'process:' .. fields[i]) == 1 then
      answers[k] = 1
      break
    end
  end
end
return answers`;

/** Renews a process's heartbeat; 0 when it had expired (or was never there), so the caller writes its counts again. */
const BEAT = `
local alive = redis.call('EXISTS', KEYS[1])
redis.call('SET', KEYS[1], '1', 'PX', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
return alive`;

/** Writes a process's connection counts as they are (ARGV: prefix, id, then user, count pairs). */
const RESTORE = `
local members = ARGV[1] .. 'process-users:' .. ARGV[2]
for i = 3, #ARGV, 2 do
  redis.call('HSET', ARGV[1] .. 'online:' .. ARGV[i], ARGV[2], ARGV[i + 1])
  redis.call('SADD', members, ARGV[i])
end
return 1`;

/** Removes every process whose heartbeat expired, with its connections; returns their users. */
const SWEEP = `
local gone = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. 'process:' .. id) == 0 then
    local members = ARGV[1] .. 'process-users:' .. id
    for _, user in ipairs(redis.call('SMEMBERS', members)) do
      redis.call('HDEL', ARGV[1] .. 'online:' .. user, id)
      table.insert(gone, user)
    end
    redis.call('DEL', members)
    redis.call('SREM', KEYS[1], id)
  end
end
return gone`;

const SCRIPTS = {
  connect: [2, CONNECT],
  disconnect: [2, DISCONNECT],
  onlineAmong: [-1, ONLINE_AMONG],
  beat: [2, BEAT],
  restore: [0, RESTORE],
  sweep: [1, SWEEP],
} as const;

export type PresenceScripts = Record<keyof typeof SCRIPTS, Script>;

/** Registers the scripts on a connection (EVALSHA, loaded on first use). */
export function presenceScripts(redis: Redis): PresenceScripts {
  const runners = {} as PresenceScripts;
  for (const [name, [numberOfKeys, lua]] of Object.entries(SCRIPTS) as [keyof typeof SCRIPTS, readonly [number, string]][]) {
    const command = `playfieldPresence_${name}`;
    // -1: as many keys as the call brings, whose count then goes first (ioredis's convention).
    redis.defineCommand(command, numberOfKeys < 0 ? { lua } : { numberOfKeys, lua });
    // defineCommand adds a method ioredis's types cannot know of.
    const run = (redis as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[command]!.bind(redis);
    runners[name] = numberOfKeys < 0 ? (keys, args) => run(keys.length, ...keys, ...args) : (keys, args) => run(...keys, ...args);
  }
  return runners;
}

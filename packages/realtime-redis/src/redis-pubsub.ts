import type { Redis } from "ioredis";
import type { RealtimePubSub } from "@playfield/server";
import type { RedisChannels } from "./redis-channels.js";

/*
 * The server's realtime pub/sub port on Redis PUBLISH/SUBSCRIBE: a topic
 * is the channel `<prefix>rt:<topic>`. Every publish of a process goes out
 * on its one command connection, so Redis receives, and each subscriber
 * gets, a topic's payloads in publish order. Redis pub/sub delivers at most
 * once: a process not subscribed when a payload is published (connecting,
 * or reconnecting after Redis was unreachable) never sees it; realtime
 * events are hints a client re-reads state after (docs/deploy.md).
 */

export function createRedisPubSub(publisher: Redis, channels: RedisChannels, prefix: string, onError: (error: unknown) => void): RealtimePubSub {
  const channelOf = (topic: string) => `${prefix}rt:${topic}`;
  return {
    publish(topic, payload) {
      publisher.publish(channelOf(topic), payload).catch(onError);
    },
    subscribe(topic, listener) {
      return channels.listen(channelOf(topic), listener);
    },
  };
}

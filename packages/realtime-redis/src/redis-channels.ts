import type { Redis } from "ioredis";

/*
 * The subscriber connection's channels: every listener of a process on
 * one Redis connection in subscriber mode. A channel is subscribed in
 * Redis while it has at least one listener here (counted), and each
 * message goes to the listeners of its channel. ioredis sends SUBSCRIBE
 * and UNSUBSCRIBE in call order and subscribes again after a reconnect.
 */

export type ChannelListener = (message: string) => void;

/** Listeners by channel over one subscriber connection. */
export interface RedisChannels {
  /** Listens to a channel; the returned function stops listening (once). */
  listen(channel: string, listener: ChannelListener): () => void;
  /** How many channels have listeners. */
  readonly size: number;
}

export function createRedisChannels(subscriber: Redis, onError: (error: unknown) => void): RedisChannels {
  const channels = new Map<string, Set<ChannelListener>>();
  subscriber.on("message", (channel: string, message: string) => {
    const listeners = channels.get(channel);
    if (!listeners) return;
    for (const listener of listeners) listener(message);
  });
  return {
    listen(channel, listener) {
      let listeners = channels.get(channel);
      if (!listeners) {
        channels.set(channel, (listeners = new Set()));
        subscriber.subscribe(channel).catch(onError);
      }
      const mine = listeners;
      // The same function may listen twice: each call gets its own entry.
      const entry: ChannelListener = (message) => listener(message);
      mine.add(entry);
      let listening = true;
      return () => {
        if (!listening) return;
        listening = false;
        mine.delete(entry);
        if (mine.size === 0 && channels.get(channel) === mine) {
          channels.delete(channel);
          subscriber.unsubscribe(channel).catch(onError);
        }
      };
    },
    get size() {
      return channels.size;
    },
  };
}

/*
 * The pub/sub port realtime fan-out goes through. A hub publishes each
 * event, serialized once, on the topic of its recipient; the hub of every
 * process subscribes to the topics of the users connected to it. In one
 * process the in-process default serves; several processes share one
 * adapter (Redis pub/sub, PostgreSQL LISTEN/NOTIFY) behind this interface.
 */

/** Receives the payloads published on a topic. */
export type TopicListener = (payload: string) => void;

/** A pub/sub transport: topics of string payloads, fire and forget, in publish order per topic. */
export interface RealtimePubSub {
  publish(topic: string, payload: string): void;
  /** Listens to a topic; the returned function stops listening. */
  subscribe(topic: string, listener: TopicListener): () => void;
}

/** The in-process pub/sub: delivery is synchronous, inside `publish`. */
export function createLocalPubSub(): RealtimePubSub {
  const topics = new Map<string, Set<TopicListener>>();
  return {
    publish(topic, payload) {
      const listeners = topics.get(topic);
      if (!listeners) return;
      for (const listener of listeners) listener(payload);
    },
    subscribe(topic, listener) {
      let listeners = topics.get(topic);
      if (!listeners) topics.set(topic, (listeners = new Set()));
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && topics.get(topic) === listeners) topics.delete(topic);
      };
    },
  };
}

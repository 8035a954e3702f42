import type { ServerEvent } from "@playfield/core";
import { createLocalPubSub, type RealtimePubSub } from "./pubsub.js";

/*
 * The realtime hub: which users have live connections, and delivery of
 * events to them. Services publish through it (session rosters, invites,
 * chat, presence); the WebSocket adapter registers connections. Events go
 * through a pub/sub port (in-process by default) so that several server
 * processes can share the fan-out.
 */

/** A server → client event, as the core describes it (`realtime.SERVER_EVENT_SCHEMAS`). */
export type RealtimeEvent = ServerEvent;

/** One live connection of a user. */
export interface RealtimeConnection {
  userId: string;
  send(event: RealtimeEvent): void;
  /** Sends an event already serialized as JSON; when present the hub uses it and serializes once for all connections. */
  sendText?(text: string): void;
}

export interface RealtimeHub {
  /** Delivers an event to every live connection of a user (none: dropped). */
  publish(userId: string, event: RealtimeEvent): void;
  /** Delivers one event to every live connection of each user, serialized once. */
  publishMany(userIds: Iterable<string>, event: RealtimeEvent): void;
  /**
   * Delivers one event to the connections of each user on this process
   * only, not through the pub/sub: for events every process works out for
   * its own connections (presence), which would arrive twice otherwise.
   */
  publishHere(userIds: Iterable<string>, event: RealtimeEvent): void;
  /** Whether the user has at least one live connection on this process (`PresenceDirectory` knows of every process). */
  isOnline(userId: string): boolean;
  /** Registers a connection; the returned function removes it. */
  attach(connection: RealtimeConnection): () => void;
}

/** Options of `createRealtimeHub`. */
export interface RealtimeHubOptions {
  /** Default: the in-process pub/sub. */
  pubsub?: RealtimePubSub;
}

const topicOf = (userId: string) => `user:${userId}`;

/**
 * The topic of events for many users at once (a group message, a roster
 * change): published once, every process with connections hears it and
 * delivers to its own recipients. For fewer recipients than this, one
 * publish per recipient reaches only the processes that hold them.
 */
const MANY_TOPIC = "many";
export const MANY_FROM = 8;

/** The recipients of a payload on MANY_TOPIC; none when it is not one (a shared Redis may carry anything). */
function recipientsOf(message: string): string[] {
  try {
    const to: unknown = JSON.parse(message.slice(0, message.indexOf("\n")));
    return Array.isArray(to) ? to.filter((id): id is string => typeof id === "string") : [];
  } catch {
    return [];
  }
}

/** A payload on MANY_TOPIC: the recipients as JSON, a newline (JSON text never holds one raw), then the event's JSON. */
const manyPayload = (userIds: readonly string[], payload: string) => `${JSON.stringify(userIds)}\n${payload}`;

/**
 * Creates a hub over a pub/sub port: a user's topic is subscribed while the
 * user has a connection on this process, so publishing to a user with no
 * connection anywhere costs one publish and nothing else.
 */
export function createRealtimeHub(options: RealtimeHubOptions = {}): RealtimeHub {
  const pubsub = options.pubsub ?? createLocalPubSub();
  const byUser = new Map<string, { connections: Set<RealtimeConnection>; unsubscribe: () => void }>();
  // Subscribed with the first connection and kept: a process that never holds one never hears events for many.
  let hearsMany = false;

  function deliver(userId: string, payload: string): void {
    const entry = byUser.get(userId);
    if (!entry) return;
    let event: RealtimeEvent | undefined;
    for (const connection of entry.connections) {
      if (connection.sendText) connection.sendText(payload);
      else connection.send((event ??= JSON.parse(payload) as RealtimeEvent));
    }
  }

  const hub: RealtimeHub = {
    publish(userId, event) {
      pubsub.publish(topicOf(userId), JSON.stringify(event));
    },
    publishMany(userIds, event) {
      const payload = JSON.stringify(event);
      const to = [...new Set(userIds)];
      if (to.length >= MANY_FROM) pubsub.publish(MANY_TOPIC, manyPayload(to, payload));
      else for (const userId of to) pubsub.publish(topicOf(userId), payload);
    },
    publishHere(userIds, event) {
      const payload = JSON.stringify(event);
      for (const userId of new Set(userIds)) deliver(userId, payload);
    },
    isOnline: (userId) => (byUser.get(userId)?.connections.size ?? 0) > 0,
    attach(connection) {
      const { userId } = connection;
      if (!hearsMany) {
        hearsMany = true;
        pubsub.subscribe(MANY_TOPIC, (message) => {
          const payload = message.slice(message.indexOf("\n") + 1);
          for (const to of recipientsOf(message)) deliver(to, payload);
        });
      }
      let entry = byUser.get(userId);
      if (!entry) {
        const connections = new Set<RealtimeConnection>();
        const unsubscribe = pubsub.subscribe(topicOf(userId), (payload) => deliver(userId, payload));
        byUser.set(userId, (entry = { connections, unsubscribe }));
      }
      const mine = entry;
      mine.connections.add(connection);
      let attached = true;
      return () => {
        if (!attached) return;
        attached = false;
        mine.connections.delete(connection);
        if (mine.connections.size === 0 && byUser.get(userId) === mine) {
          byUser.delete(userId);
          mine.unsubscribe();
        }
      };
    },
  };
  return hub;
}

/** The in-process hub (in-process pub/sub). */
export function createLocalRealtimeHub(): RealtimeHub {
  return createRealtimeHub();
}

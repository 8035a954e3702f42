/*
 * The realtime hub: which users have live connections, and delivery of
 * events to them. Services publish through it (session rosters, invites,
 * chat, presence); the WebSocket adapter registers connections. The default
 * is in-process; a pub/sub port lets several server processes share it.
 */

/** A server → client event: a JSON object with a `type`. */
export interface RealtimeEvent {
  type: string;
  [field: string]: unknown;
}

/** One live connection of a user. */
export interface RealtimeConnection {
  userId: string;
  send(event: RealtimeEvent): void;
}

export interface RealtimeHub {
  /** Delivers an event to every live connection of a user (none: dropped). */
  publish(userId: string, event: RealtimeEvent): void;
  /** Whether the user has at least one live connection. */
  isOnline(userId: string): boolean;
  /** Registers a connection; the returned function removes it. */
  attach(connection: RealtimeConnection): () => void;
}

/** The in-process hub. */
export function createLocalRealtimeHub(): RealtimeHub {
  const byUser = new Map<string, Set<RealtimeConnection>>();
  return {
    publish(userId, event) {
      for (const connection of byUser.get(userId) ?? []) connection.send(event);
    },
    isOnline: (userId) => (byUser.get(userId)?.size ?? 0) > 0,
    attach(connection) {
      let set = byUser.get(connection.userId);
      if (!set) byUser.set(connection.userId, (set = new Set()));
      set.add(connection);
      return () => {
        set.delete(connection);
        if (set.size === 0) byUser.delete(connection.userId);
      };
    },
  };
}

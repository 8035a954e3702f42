/*
 * The presence directory port: which users have a live realtime connection
 * on any server process, and the word that someone's presence may have
 * changed, passed to every process. Each process's presence feed
 * (services/presence/feed.ts) tells only its own connected viewers; this
 * port lets it answer `online` for a user connected to another process and
 * hear of changes made there. One process uses the in-process default;
 * several share an adapter (@playfield/realtime-redis), which also turns
 * the users of a process that died offline.
 */

/** Hears users whose presence may have changed elsewhere (another process, or a process that died). */
export type PresenceListener = (userIds: string[]) => void;

/** Where users are connected, shared by every server process. */
export interface PresenceDirectory {
  /** A realtime connection of the user opened on this process; resolves once every process can see it. */
  connected(userId: string): Promise<void>;
  /** A realtime connection of the user on this process closed; resolves once every process can see it. */
  disconnected(userId: string): Promise<void>;
  /** Which of these users have a live connection on any process that is alive (one round trip for all). */
  onlineAmong(userIds: readonly string[]): Promise<Set<string>>;
  /** Tells every other process that these users' presence may have changed (after the change is visible to them). */
  broadcast(userIds: string[]): void;
  /**
   * Listens to the changes other processes broadcast, and to the users who
   * went offline with a process that stopped (never this process's own
   * broadcasts). The returned function stops listening.
   */
  onChanged(listener: PresenceListener): () => void;
}

/** The in-process directory: connection counts in this process's heap; there is no other process to tell. */
export function createLocalPresenceDirectory(): PresenceDirectory {
  const counts = new Map<string, number>();
  return {
    async connected(userId) {
      counts.set(userId, (counts.get(userId) ?? 0) + 1);
    },
    async disconnected(userId) {
      const left = (counts.get(userId) ?? 0) - 1;
      if (left > 0) counts.set(userId, left);
      else counts.delete(userId);
    },
    async onlineAmong(userIds) {
      return new Set(userIds.filter((userId) => counts.has(userId)));
    },
    broadcast() {},
    onChanged: () => () => undefined,
  };
}

import type { Realtime } from "./create-realtime.js";
import type { PresenceEvent } from "./realtime-events.js";

/** Where one friend is; friends not listed are `offline`. */
export type FriendPresence = Omit<PresenceEvent, "type" | "userId">;

/** Friends' presence kept from `presence` events, as UIs read it. */
export interface FriendPresenceState {
  /** Friends who are not offline, by user id: a new map on every change (compare by identity; fits `useSyncExternalStore`). */
  readonly current: ReadonlyMap<string, FriendPresence>;
  /** A friend's presence (`offline` when nothing else is known). */
  of(userId: string): FriendPresence;
  /** Listens to changes; the returned function stops listening. */
  subscribe(listener: (current: ReadonlyMap<string, FriendPresence>) => void): () => void;
  /** Stops following the connection. */
  stop(): void;
}

const OFFLINE: FriendPresence = { presence: "offline" };

/**
 * Keeps the presence of the user's friends from a realtime connection. Each
 * new connection hears every friend who is not offline first, so the state
 * is emptied when a connection drops and filled again once the next one is
 * ready; meanwhile nothing is known, and every friend reads `offline`.
 *
 * @example
 * const friends = friendPresence(realtime);
 * friends.subscribe((current) => render([...current].filter(([, p]) => p.presence === "in_game")));
 */
export function friendPresence(realtime: Pick<Realtime, "on" | "onState">): FriendPresenceState {
  let current: ReadonlyMap<string, FriendPresence> = new Map();
  const listeners = new Set<(current: ReadonlyMap<string, FriendPresence>) => void>();

  const replace = (next: ReadonlyMap<string, FriendPresence>) => {
    current = next;
    for (const listener of listeners) listener(next);
  };

  const stopPresence = realtime.on("presence", (event) => {
    const next = new Map(current);
    if (event.presence === "offline") {
      if (!next.delete(event.userId)) return;
    } else {
      next.set(event.userId, event.presence === "in_game" ? { presence: "in_game", experienceId: event.experienceId ?? "" } : { presence: event.presence });
    }
    replace(next);
  });
  const stopState = realtime.onState((state) => {
    if (state !== "ready" && current.size > 0) replace(new Map());
  });

  return {
    get current() { return current; },
    of: (userId) => current.get(userId) ?? OFFLINE,
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
    stop() {
      stopPresence();
      stopState();
      listeners.clear();
    },
  };
}

import { asSeenBy, OFFLINE, type Presence } from "./presence.js";

/*
 * The pure decisions of presence events: what a `presence` event holds,
 * whether two presences differ, and which viewers must be told what about a
 * user. The feed (feed.ts) reads the facts and sends the result.
 */

/** The `presence` realtime event: where `userId` is, as their friends see it; `experienceId` only while `in_game`, to a friend who may see it. */
export interface PresenceEvent {
  type: "presence";
  userId: string;
  presence: Presence["presence"];
  experienceId?: string;
  [field: string]: unknown;
}

/** The `presence` event telling that `userId` is now at `presence`. */
export function presenceEvent(userId: string, presence: Presence): PresenceEvent {
  return presence.presence === "in_game" && presence.experienceId !== ""
    ? { type: "presence", userId, presence: "in_game", experienceId: presence.experienceId }
    : { type: "presence", userId, presence: presence.presence };
}

/** Whether two presences look the same to a viewer (`experienceId` counts only while in game). */
export function samePresence(a: Presence, b: Presence): boolean {
  return a.presence === b.presence && (a.presence !== "in_game" || a.experienceId === b.experienceId);
}

/** What is known of one user when deciding who to tell about them. */
export interface PresenceFacts {
  /** The user's presence as a friend who may see its experience sees it now (presence.ts's rule). */
  current: Presence;
  /** Whether a friend may see the experience of `current` (catalog/access.ts); others see `in_game` without it. */
  seesExperience(viewer: string): boolean;
  /** The user's friends now. */
  friends: ReadonlySet<string>;
  /** The viewers to consider: friends with a live connection, and anyone told something other than `offline` about the user. */
  viewers: Iterable<string>;
  /** What a viewer was last told about the user (`OFFLINE` when nothing). */
  told(viewer: string): Presence;
}

/** One presence to tell some viewers. */
export interface PresenceChange {
  to: string[];
  presence: Presence;
}

/**
 * Who must be told what about a user: each viewer whose last-told presence
 * differs from what they may see now (the current presence for a friend,
 * without its experience for a friend who may not see it, `offline` for
 * anyone else, so a former friend's last word is `offline`). Viewers told
 * the same thing are grouped, so each event is built once.
 */
export function presenceChanges(facts: PresenceFacts): PresenceChange[] {
  const hidden = asSeenBy(facts.current, false);
  const groups = new Map<Presence, string[]>([[facts.current, []], [hidden, []], [OFFLINE, []]]);
  for (const viewer of new Set(facts.viewers)) {
    const seen = !facts.friends.has(viewer) ? OFFLINE : facts.seesExperience(viewer) ? facts.current : hidden;
    if (!samePresence(facts.told(viewer), seen)) groups.get(seen)!.push(viewer);
  }
  return [...groups].filter(([, to]) => to.length > 0).map(([presence, to]) => ({ to, presence }));
}

/*
 * Positions and unread counts of a conversation. Every message has a
 * position: its time in ms, pushed one past the previous message when two
 * arrive in the same millisecond (or the clock steps back), so positions
 * are unique and increasing within a conversation and close to time. A
 * reader's marker is a position: unread = messages after it, one indexed
 * count.
 */

/** The position of a new message in a conversation whose last message is at `lastPos` (0: none). */
export function nextPosition(lastPos: number, now: number): number {
  return Math.max(now, lastPos + 1);
}

/**
 * The position after which a member's messages are unread: after their read
 * marker, and from the millisecond they joined the group or session on
 * (messages from before they came do not count). `joinedAt` is 0 for DMs.
 */
export function unreadAfter(readPos: number, joinedAt: number): number {
  return Math.max(readPos, joinedAt - 1);
}

/** A read marker moved to `pos`: markers only move forward. */
export function advanceMarker(readPos: number, pos: number): number {
  return Math.max(readPos, pos);
}

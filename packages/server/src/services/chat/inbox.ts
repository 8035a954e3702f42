import { dmParticipants, tables, unreadAfter, type ChatConversationRow, type Tx } from "@playfield/core";
import { readId } from "./access.js";

/*
 * A user's conversations and unread counts. The inbox is: DMs with a read
 * marker of the user (both sides get one with the first message), and the
 * groups and sessions the user is a member of now, each once it has a
 * message. Unread = one indexed count of the messages after the marker.
 */

/** One conversation of a user's inbox. */
export interface InboxEntry {
  key: string;
  conversation: ChatConversationRow;
  /** Messages after this position are unread. */
  unreadAfter: number;
}

/** Every conversation of `me` that has a message, in no particular order. */
export async function inboxOf(tx: Tx, me: string): Promise<InboxEntry[]> {
  const [reads, groups, sessions] = await Promise.all([
    tx.query(tables.chatReads, "byUser", { equals: [me] }),
    tx.query(tables.groupMembers, "byUser", { equals: [me] }),
    tx.query(tables.sessionMembers, "byUser", { equals: [me] }),
  ]);
  const markers = new Map(reads.map((r) => [r.conversationKey, r.readPos]));
  const candidates: [key: string, joinedAt: number][] = [
    ...reads.filter((r) => dmParticipants(r.conversationKey) !== null).map((r): [string, number] => [r.conversationKey, 0]),
    ...groups.map((g): [string, number] => [`group:${g.groupId}`, g.joinedAt]),
    ...sessions.map((s): [string, number] => [`session:${s.sessionId}`, s.joinedAt]),
  ];
  const conversations = await tx.getMany(tables.chatConversations, candidates.map(([key]) => key));
  return candidates.flatMap(([key, joinedAt], i) => {
    const conversation = conversations[i];
    return conversation ? [{ key, conversation, unreadAfter: unreadAfter(markers.get(key) ?? 0, joinedAt) }] : [];
  });
}

/** Unread messages of one inbox entry: O(log n) in the memory adapter. */
export function unreadOf(tx: Tx, entry: InboxEntry): Promise<number> {
  if (entry.conversation.lastPos <= entry.unreadAfter) return Promise.resolve(0);
  return tx.count(tables.chatMessages, "byConversation", { equals: [entry.key], range: { gt: entry.unreadAfter } });
}

/** The sum of a user's unread messages over their inbox. */
export async function unreadTotal(tx: Tx, me: string): Promise<number> {
  const counts = await Promise.all((await inboxOf(tx, me)).map((entry) => unreadOf(tx, entry)));
  return counts.reduce((a, b) => a + b, 0);
}

/** Moves `me`'s read marker in a conversation forward to `pos` (never back). */
export async function markReadTo(tx: Tx, me: string, key: string, pos: number): Promise<void> {
  const id = readId(me, key);
  const row = await tx.get(tables.chatReads, id);
  if (row && row.readPos >= pos) return;
  await tx.put(tables.chatReads, { id, userId: me, conversationKey: key, readPos: pos });
}

import { dmParticipants, tables, unreadAfter, type ChatConversationRow, type ChatMessageRow, type ChatReadRow, type Tx } from "@playfield/core";
import { readId } from "./access.js";

/*
 * A user's conversations and unread counts. The inbox is: DMs with a read
 * marker of the user (both sides get one with the first message), and the
 * groups and sessions the user is a member of now, each once it has a
 * message. Unread = the conversation's message count less the count at the
 * marker, both kept as messages are numbered (no read); one indexed count of
 * the messages after the marker where a count is not known (the marker is
 * older than the member's joining, or rows are from before numbering).
 */

/** One conversation of a user's inbox. */
export interface InboxEntry {
  key: string;
  conversation: ChatConversationRow;
  /** Messages after this position are unread. */
  unreadAfter: number;
  /** How many messages are at or before `unreadAfter`, when known without a read. */
  readCount?: number;
}

/** Every conversation of `me` that has a message, in no particular order. */
export async function inboxOf(tx: Tx, me: string): Promise<InboxEntry[]> {
  const [reads, groups, sessions] = await Promise.all([
    tx.query(tables.chatReads, "byUser", { equals: [me] }),
    tx.query(tables.groupMembers, "byUser", { equals: [me] }),
    tx.query(tables.sessionMembers, "byUser", { equals: [me] }),
  ]);
  const markers = new Map(reads.map((r) => [r.conversationKey, r]));
  const candidates: [key: string, joinedAt: number][] = [
    ...reads.filter((r) => dmParticipants(r.conversationKey) !== null).map((r): [string, number] => [r.conversationKey, 0]),
    ...groups.map((g): [string, number] => [`group:${g.groupId}`, g.joinedAt]),
    ...sessions.map((s): [string, number] => [`session:${s.sessionId}`, s.joinedAt]),
  ];
  const conversations = await tx.getMany(tables.chatConversations, candidates.map(([key]) => key));
  return candidates.flatMap(([key, joinedAt], i) => {
    const conversation = conversations[i];
    if (!conversation) return [];
    const marker = markers.get(key);
    const after = unreadAfter(marker?.readPos ?? 0, joinedAt);
    const readCount = readCountAt(after, marker);
    return [{ key, conversation, unreadAfter: after, ...(readCount === undefined ? {} : { readCount }) }];
  });
}

/** Messages at or before position `after`, when the marker knows it: none before the first position, the marker's count at its own. */
function readCountAt(after: number, marker: ChatReadRow | undefined): number | undefined {
  if (after <= 0) return 0;
  return marker !== undefined && marker.readPos === after ? marker.readCount : undefined;
}

/** Unread messages of one inbox entry: from the counts when both are known (no read), else one indexed count. */
export function unreadOf(tx: Tx, entry: InboxEntry): Promise<number> {
  const { conversation, readCount } = entry;
  if (conversation.lastPos <= entry.unreadAfter) return Promise.resolve(0);
  if (conversation.count !== undefined && readCount !== undefined) return Promise.resolve(conversation.count - readCount);
  return tx.count(tables.chatMessages, "byConversation", { equals: [entry.key], range: { gt: entry.unreadAfter } });
}

/** The sum of a user's unread messages over their inbox. */
export async function unreadTotal(tx: Tx, me: string): Promise<number> {
  const counts = await Promise.all((await inboxOf(tx, me)).map((entry) => unreadOf(tx, entry)));
  return counts.reduce((a, b) => a + b, 0);
}

/**
 * Moves `me`'s read marker in a conversation forward to `message` (never back), with the message's number when it has one.
 * `marker`: the marker as read earlier in this transaction, when it was.
 */
export async function markReadTo(
  tx: Tx, me: string, key: string, message: Pick<ChatMessageRow, "pos" | "n">, marker = tx.get(tables.chatReads, readId(me, key)),
): Promise<void> {
  const row = await marker;
  if (row && row.readPos >= message.pos) return;
  await tx.put(tables.chatReads, { id: readId(me, key), userId: me, conversationKey: key, readPos: message.pos, ...(message.n === undefined ? {} : { readCount: message.n }) });
}

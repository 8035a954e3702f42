import { defineTable } from "../port.js";

/*
 * ChatService's tables: messages, one row per conversation (its last
 * message, for the inbox), and each user's read marker per conversation.
 * Conversation keys: `dm:<a>:<b>` (sorted ids), `group:<id>`, `session:<id>`
 * (domain/chat-channel.ts). Positions: domain/chat-unread.ts.
 * None is declared `checkedCopies`: a send asks for the rows it writes with
 * its first reads, so copies would save it no message, and each send would
 * add its rows to the process's notices (a group's members send through
 * any process, whose copies of its conversation would mostly be stale).
 */

export interface ChatMessageRow {
  id: string;
  conversationKey: string;
  /** Unique and increasing within the conversation; close to `createdAt`. */
  pos: number;
  senderId: string;
  /** The sender's id for this message: a resend with the same id is not stored twice. */
  clientMessageId: string;
  /** The text as everyone sees it (filtered for all when the sender is under 13). */
  text: string;
  /** The text as under-13 readers see it. */
  childText: string;
  createdAt: number;
  /** Its number in the conversation, 1 for the first; absent on messages stored before messages were numbered. */
  n?: number;
}

export const chatMessages = defineTable<ChatMessageRow>()({
  name: "chat_messages",
  primaryKey: (row) => row.id,
  indexes: {
    /** Unread counts: messages of a conversation after a position. */
    byConversation: { key: (row) => [row.conversationKey, row.pos] },
    byClientId: { key: (row) => [row.senderId, row.clientMessageId], unique: true },
  },
});

/** A conversation with at least one message, and its last message. */
export interface ChatConversationRow {
  key: string;
  lastPos: number;
  lastMessageId: string;
  lastSenderId: string;
  lastText: string;
  lastChildText: string;
  lastAt: number;
  /** How many messages the conversation holds (the last one's `n`); absent on rows written before messages were numbered. */
  count?: number;
}

export const chatConversations = defineTable<ChatConversationRow>()({
  name: "chat_conversations",
  primaryKey: (row) => row.key,
  indexes: {},
});

/**
 * A user's read marker in a conversation. Both sides of a DM get one with
 * its first message (that is how a DM shows in the inbox); group and session
 * members get one when they first send or mark read.
 */
export interface ChatReadRow {
  /** `${userId}|${conversationKey}` */
  id: string;
  userId: string;
  conversationKey: string;
  /** Everything at or before this position is read (0: nothing). */
  readPos: number;
  /** How many messages are at or before `readPos` (the `n` of the message there); absent when not known. */
  readCount?: number;
}

export const chatReads = defineTable<ChatReadRow>()({
  name: "chat_reads",
  primaryKey: (row) => row.id,
  indexes: {
    byUser: { key: (row) => [row.userId, row.conversationKey] },
  },
});

/**
 * A user's chat send limit (docs/chat.md): the token bucket's one number,
 * the time it is full again (domain/throttle.ts `RateState`). In storage, and
 * written in the send's own transaction, so that every server process on
 * one database counts a user's sends against the same bucket.
 */
export interface ChatBucketRow {
  userId: string;
  fullAt: number;
}

export const chatBuckets = defineTable<ChatBucketRow>()({
  name: "chat_buckets",
  primaryKey: (row) => row.userId,
  indexes: {},
});

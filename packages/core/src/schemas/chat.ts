/*
 * Schemas of the ChatService: the conversation inbox and read state. Messages
 * themselves travel over the realtime connection.
 *
 * Caps (the spec leaves them open): list limit at most 100 (0 = the service's
 * default); channel names at most 200 characters; message ids at most 64.
 */
import { z } from "zod";
import { int64, list, message, string, timestamp } from "../wire/fields.js";
import { limit, UserSummary } from "./common.js";

/** A channel as the caller names it: `dm:<userId>`, `group:<id>` or `session:<id>`. */
export const CHAT_CHANNEL_PATTERN = /^(dm|group|session):.+$/;

export const Conversation = message("Conversation", {
  channel: string(),
  title: string(),
  /** For DMs, the other person. */
  withUser: UserSummary,
  lastMessage: string(),
  lastSender: UserSummary,
  lastAt: timestamp(),
  unread: int64(),
  lastMessageId: string(),
});

export const ListConversationsRequest = message("ListConversationsRequest", { limit: limit(100) });
export const ListConversationsResponse = message("ListConversationsResponse", { conversations: list(Conversation) });

export const MarkReadRequest = message("MarkReadRequest", {
  channel: string(
    z.string()
      .max(200, { error: "at most 200 characters", abort: true })
      .regex(CHAT_CHANNEL_PATTERN, { error: "dm:<userId>, group:<id> or session:<id>" }),
  ),
  /** Everything up to and including this message is read. */
  messageId: string(z.string().max(64, { error: "at most 64 characters" })),
});
export const MarkReadResponse = message("MarkReadResponse", { unreadTotal: int64() });

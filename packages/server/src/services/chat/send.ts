import { ChannelKind, channelFor, conversationKey, fail, nextPosition, tables, type ChatChannel, type ChatMessageRow, type UserRow } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import type { RealtimeEvent } from "../../ports/realtime-hub.js";
import { iso, requireUser, userSummary } from "../identity/accounts.js";
import { inTurn } from "../turns.js";
import { audienceOf, isChild, readId, type Hearer } from "./access.js";
import { markReadTo } from "./inbox.js";
import type { ChatCharge } from "./rate.js";

/*
 * Sending a chat message: one transaction checks who may write and the
 * sender's rate limit, stores the message (once per clientMessageId), moves
 * the conversation's last message and the sender's read marker; after the commit, `chat_message` goes to
 * every connection of everyone who hears it, each with the channel as they
 * name it and the text as they may read it.
 */

/** A checked `chat_send`. */
export interface ChatSend {
  channel: ChatChannel;
  text: string;
  clientMessageId: string;
}

/** What a send stored (or found already stored) and who hears it. */
export interface ChatSent {
  message: ChatMessageRow;
  /** The clientMessageId was used before: nothing was stored or delivered again. */
  duplicate: boolean;
  sender: UserRow;
  hearers: Hearer[];
}

/**
 * Stores a message; the caller delivers it with `deliverChat`. `charge`
 * takes the sender's rate-limit token once every other check has passed, so
 * a resend or a refused message costs nothing.
 */
export function storeChat(deps: ServerDeps, senderId: string, send: ChatSend, charge?: ChatCharge): Promise<ChatSent> {
  const sentTo = conversationKey(send.channel, senderId);
  // Every send writes its conversation's row: sends into one conversation take turns in this server rather than collide.
  return inTurn(deps, `conversation:${sentTo}`, () => deps.storage.transact(async (tx) => {
    const sender = await requireUser(tx, senderId);
    const now = deps.clock.now();
    const [previous] = await tx.query(tables.chatMessages, "byClientId", { equals: [senderId, send.clientMessageId], limit: 1 });
    if (previous) {
      // A resend: answered with what was stored, whatever changed since (a block, a left group).
      if (previous.conversationKey !== sentTo) {
        throw fail.invalid("clientMessageId: already used for a message on another channel");
      }
      return { message: previous, duplicate: true, sender, hearers: [] };
    }
    const { key, hearers } = await audienceOf(tx, sender, send.channel, now);
    await charge?.take(tx, now);
    const conversation = await tx.get(tables.chatConversations, key);
    const pos = nextPosition(conversation?.lastPos ?? 0, now);
    // Messages are numbered in the conversation row, which every send writes anyway; a row from before numbering counts them once.
    const count = conversation === undefined ? 0 : conversation.count ?? await tx.count(tables.chatMessages, "byConversation", { equals: [key] });
    // An under-13 sender's words are filtered for everyone; otherwise only for under-13 readers.
    const senderChild = isChild(sender, now);
    const text = deps.chatFilter.filter(send.text, { childSafe: senderChild });
    const childText = senderChild ? text : deps.chatFilter.filter(send.text, { childSafe: true });
    const message: ChatMessageRow = {
      id: deps.ids.id("msg"), conversationKey: key, pos, senderId, clientMessageId: send.clientMessageId, text, childText, createdAt: now, n: count + 1,
    };
    await tx.put(tables.chatMessages, message);
    await tx.put(tables.chatConversations, {
      key, lastPos: pos, lastMessageId: message.id, lastSenderId: senderId, lastText: text, lastChildText: childText, lastAt: now, count: count + 1,
    });
    // Sending reads the conversation up to one's own message.
    await markReadTo(tx, senderId, key, message);
    // The other side of a DM gets a marker, so the conversation shows in their inbox.
    for (const { user } of hearers) {
      if (user.id !== senderId && send.channel.kind === ChannelKind.Dm && !(await tx.get(tables.chatReads, readId(user.id, key)))) {
        await tx.put(tables.chatReads, { id: readId(user.id, key), userId: user.id, conversationKey: key, readPos: 0, readCount: 0 });
      }
    }
    return { message, duplicate: false, sender, hearers };
  }));
}

/** Publishes a stored message to everyone who hears it: one serialization per distinct (channel, text). */
export function deliverChat(deps: ServerDeps, sent: ChatSent): void {
  const { message, sender } = sent;
  const groups = new Map<string, { event: RealtimeEvent; userIds: string[] }>();
  const from = userSummary(sender);
  const sentAt = iso(message.createdAt);
  for (const { user, child } of sent.hearers) {
    const channel = channelFor(message.conversationKey, user.id);
    const text = child ? message.childText : message.text;
    const id = `${child ? 1 : 0}${channel}`;
    let group = groups.get(id);
    if (!group) {
      groups.set(id, (group = { event: { type: "chat_message", messageId: message.id, channel, sender: from, text, sentAt }, userIds: [] }));
    }
    group.userIds.push(user.id);
  }
  for (const { event, userIds } of groups.values()) deps.realtime.publishMany(userIds, event);
}

import { ChannelKind, channelFor, conversationKey, fail, nextPosition, tables, type ChatChannel, type ChatMessageRow, type Tx, type UserRow } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import type { RealtimeEvent } from "../../ports/realtime-hub.js";
import { iso, requireUser, userSummary } from "../identity/accounts.js";
import { inTurn } from "../turns.js";
import { early } from "../early-reads.js";
import { audienceOf, audienceReads, isChild, readId, type Hearer } from "./access.js";
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
    const reads = sendReads(tx, senderId, send, sentTo, charge);
    const sender = await reads.sender;
    const now = deps.clock.now();
    const [previous] = await reads.previous;
    if (previous) {
      // A resend: answered with what was stored, whatever changed since (a block, a left group).
      if (previous.conversationKey !== sentTo) {
        throw fail.invalid("clientMessageId: already used for a message on another channel");
      }
      return { message: previous, duplicate: true, sender, hearers: [] };
    }
    const { key, hearers } = await audienceOf(tx, sender, send.channel, now, reads.audience);
    await charge?.take(tx, now, reads.bucket);
    const conversation = await reads.conversation;
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
    await markReadTo(tx, senderId, key, message, reads.marker);
    // The other side of a DM gets a marker, so the conversation shows in their inbox.
    if (reads.recipientMarker && !(await reads.recipientMarker)) {
      await tx.put(tables.chatReads, { id: readId(send.channel.id, key), userId: send.channel.id, conversationKey: key, readPos: 0, readCount: 0 });
    }
    return { message, duplicate: false, sender, hearers };
  }));
}

/**
 * Every read a send may decide on whose key the request names, asked for as
 * its transaction starts: on a database they go in one message, where
 * awaiting each in turn cost one message each. They are awaited in the
 * order of the checks, so refusals come as before; the reads of a send
 * refused or resent early are never awaited (`early`).
 */
function sendReads(tx: Tx, senderId: string, send: ChatSend, key: string, charge: ChatCharge | undefined) {
  return {
    sender: early(requireUser(tx, senderId)),
    previous: early(tx.query(tables.chatMessages, "byClientId", { equals: [senderId, send.clientMessageId], limit: 1 })),
    audience: audienceReads(tx, senderId, send.channel),
    bucket: early(charge?.read(tx) ?? null),
    conversation: early(tx.get(tables.chatConversations, key)),
    marker: early(tx.get(tables.chatReads, readId(senderId, key))),
    recipientMarker: early(send.channel.kind === ChannelKind.Dm ? tx.get(tables.chatReads, readId(send.channel.id, key)) : null),
  };
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

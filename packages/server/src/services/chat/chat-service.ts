import { channelFor, ChannelKind, dmParticipants, fail, tables, type ChatService, type Tx } from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso, requireUser, userSummary } from "../identity/accounts.js";
import { channelOf, isChild, readableConversation } from "./access.js";
import { inboxOf, markReadTo, unreadOf, unreadTotal, type InboxEntry } from "./inbox.js";

/* ChatService: the inbox and read state (docs/chat.md); messages travel over the realtime connection (realtime/chat-handler.ts). */

/** Conversations ListConversations answers when `limit` is 0. */
export const DEFAULT_CONVERSATIONS = 50;

const NO_USER = { id: "", username: "", displayName: "", headshotUrl: "" };

const kindAndId = (key: string) => [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)] as const;

/**
 * The titles of conversations (the other person's name, the group's name,
 * the session's experience title) and the users they show, read once for
 * all entries.
 */
async function conversationFacts(tx: Tx, entries: readonly InboxEntry[], me: string) {
  const others = entries.map((entry) => {
    const pair = dmParticipants(entry.key);
    return pair ? (pair[0] === me ? pair[1] : pair[0]) : null;
  });
  const userIds = [...new Set([...others.filter((id) => id !== null), ...entries.map((entry) => entry.conversation.lastSenderId)])];
  const groupIds = entries.map((entry) => kindAndId(entry.key)).filter(([kind]) => kind === ChannelKind.Group).map(([, id]) => id);
  const sessionIds = entries.map((entry) => kindAndId(entry.key)).filter(([kind]) => kind === ChannelKind.Session).map(([, id]) => id);
  const [users, groups, sessions] = await Promise.all([
    tx.getMany(tables.users, userIds),
    tx.getMany(tables.groups, groupIds),
    tx.getMany(tables.gameSessions, sessionIds),
  ]);
  const experienceIds = [...new Set(sessions.flatMap((session) => (session ? [session.experienceId] : [])))];
  const experiences = await tx.getMany(tables.experiences, experienceIds);
  const byId = <R>(ids: readonly string[], rows: readonly (R | undefined)[]) => new Map(ids.map((id, i) => [id, rows[i]]));
  const user = byId(userIds, users), group = byId(groupIds, groups), session = byId(sessionIds, sessions), experience = byId(experienceIds, experiences);
  return entries.map((entry, i) => {
    const other = others[i] === null ? undefined : user.get(others[i]!);
    const [kind, id] = kindAndId(entry.key);
    const title = other
      ? userSummary(other).displayName
      : kind === ChannelKind.Group
        ? group.get(id)?.name ?? ""
        : experience.get(session.get(id)?.experienceId ?? "")?.title ?? "";
    return { other, sender: user.get(entry.conversation.lastSenderId), title };
  });
}

export const chatService: ServiceImpl<typeof ChatService> = {
  async listConversations(req, ctx) {
    const me = ctx.user().userId;
    const limit = req.limit || DEFAULT_CONVERSATIONS;
    const conversations = await ctx.deps.storage.transact(async (tx) => {
      const viewer = await requireUser(tx, me);
      const child = isChild(viewer, ctx.deps.clock.now());
      const inbox = (await inboxOf(tx, me))
        .sort((a, b) => b.conversation.lastPos - a.conversation.lastPos || (a.key < b.key ? -1 : 1))
        .slice(0, limit);
      const facts = await conversationFacts(tx, inbox, me);
      return Promise.all(inbox.map(async (entry, i) => {
        const { conversation } = entry;
        const { other, sender, title } = facts[i]!;
        return {
          channel: channelFor(entry.key, me),
          title,
          withUser: other ? userSummary(other) : NO_USER,
          lastMessage: child ? conversation.lastChildText : conversation.lastText,
          lastSender: sender ? userSummary(sender) : NO_USER,
          lastAt: iso(conversation.lastAt),
          unread: await unreadOf(tx, entry),
          lastMessageId: conversation.lastMessageId,
        };
      }));
    });
    return { conversations };
  },

  async markRead(req, ctx) {
    const me = ctx.user().userId;
    const channel = channelOf(req.channel);
    if (req.messageId === "") throw fail.invalid("messageId: required");
    return ctx.deps.storage.transact(async (tx) => {
      await requireUser(tx, me);
      const { key } = await readableConversation(tx, me, channel);
      const message = await tx.get(tables.chatMessages, req.messageId);
      if (!message || message.conversationKey !== key) throw fail.notFound("messageId: no such message in channel");
      await markReadTo(tx, me, key, message);
      return { unreadTotal: await unreadTotal(tx, me) };
    });
  },
};

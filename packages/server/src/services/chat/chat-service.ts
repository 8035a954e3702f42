import { channelFor, ChannelKind, dmParticipants, fail, tables, type ChatService, type Tx, type UserRow } from "@playfield/core";
import type { ServiceImpl } from "../../rpc/router.js";
import { iso, requireUser, userSummary } from "../identity/accounts.js";
import { channelOf, isChild, readableConversation } from "./access.js";
import { inboxOf, markReadTo, unreadOf, unreadTotal, type InboxEntry } from "./inbox.js";

/* ChatService: the inbox and read state (docs/chat.md); messages travel over the realtime connection (realtime/chat-handler.ts). */

/** Conversations ListConversations answers when `limit` is 0. */
export const DEFAULT_CONVERSATIONS = 50;

const NO_USER = { id: "", username: "", displayName: "", headshotUrl: "" };

async function userOf(tx: Tx, cache: Map<string, Promise<UserRow | undefined>>, id: string): Promise<UserRow | undefined> {
  let user = cache.get(id);
  if (!user) cache.set(id, (user = tx.get(tables.users, id)));
  return user;
}

/** The title of a conversation: the other person's name, the group's name, the session's experience title. */
async function titleOf(tx: Tx, entry: InboxEntry, other: UserRow | undefined): Promise<string> {
  if (other) return userSummary(other).displayName;
  const [kind, id] = [entry.key.slice(0, entry.key.indexOf(":")), entry.key.slice(entry.key.indexOf(":") + 1)];
  if (kind === ChannelKind.Group) return (await tx.get(tables.groups, id))?.name ?? "";
  const session = await tx.get(tables.gameSessions, id);
  const experience = session ? await tx.get(tables.experiences, session.experienceId) : undefined;
  return experience?.title ?? "";
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
      const users = new Map<string, Promise<UserRow | undefined>>();
      return Promise.all(inbox.map(async (entry) => {
        const { conversation } = entry;
        const pair = dmParticipants(entry.key);
        const other = pair ? await userOf(tx, users, pair[0] === me ? pair[1] : pair[0]) : undefined;
        const sender = await userOf(tx, users, conversation.lastSenderId);
        return {
          channel: channelFor(entry.key, me),
          title: await titleOf(tx, entry, other),
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
      await markReadTo(tx, me, key, message.pos);
      return { unreadTotal: await unreadTotal(tx, me) };
    });
  },
};

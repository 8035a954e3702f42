import {
  AgeBand, ageBandOf, ChannelKind, channelRefusal, ChatRefusal, conversationKey, dmKey, dmParticipants, dmRefusal, fail, hearsMessage,
  parseChannel, tables, type ChatChannel, type ChatParty, type PlayfieldError, type Tx, type UserRow,
} from "@playfield/core";
import { early } from "../early-reads.js";
import { areFriends, blockedBy, blockersAmong, hasBlocked } from "../social/graph.js";

/*
 * Who may write and read where in chat: channel parsing, the refusals as
 * errors, the members who hear a message, and the conversations a user may
 * mark read. Reads run inside the caller's transaction.
 */

/** Under 13 today (guests count as under 13, though they never chat). */
export function isChild(user: UserRow, now: number): boolean {
  return user.guest || ageBandOf(user.birthdate, new Date(now)) === AgeBand.Under13;
}

function partyOf(user: UserRow, now: number): ChatParty {
  return { id: user.id, guest: user.guest, child: isChild(user, now) };
}

/** Parses a channel field; `invalid_argument` naming the field when malformed. */
export function channelOf(text: unknown, field = "channel"): ChatChannel {
  if (typeof text !== "string" || text === "") throw fail.invalid(`${field}: required`);
  const channel = parseChannel(text);
  if (!channel) throw fail.invalid(`${field}: dm:<userId>, group:<id> or session:<id>`);
  return channel;
}

/** The error a refusal answers (docs/chat.md lists them). */
export function refusalError(refusal: ChatRefusal, channel: ChatChannel): PlayfieldError {
  switch (refusal) {
    case ChatRefusal.Guest: return fail.denied("guests cannot chat: upgrade to an account first");
    case ChatRefusal.Self: return fail.invalid("channel: you cannot message yourself");
    case ChatRefusal.BlockedBy: return fail.notFound("channel: no such user");
    case ChatRefusal.YouBlocked: return fail.precondition("channel: you blocked this user; unblock them to message them");
    case ChatRefusal.RecipientGuest: return fail.precondition("channel: guests cannot chat");
    case ChatRefusal.NotAccepting: return fail.denied("channel: this user does not accept messages from you (whoCanMessage)");
    case ChatRefusal.ChildNonFriend: return fail.denied("channel: under-13 accounts may message friends only");
    case ChatRefusal.NotMember: return fail.notFound(`channel: no such ${channel.kind} of yours`);
  }
}

/** Someone who hears a message on a channel. */
export interface Hearer {
  user: UserRow;
  child: boolean;
}

/** Where a message goes: the conversation key and everyone who hears it (the sender included). */
export interface Audience {
  key: string;
  hearers: Hearer[];
}

/** The members of a group or session who hear a message from `sender`: live accounts, no blocks either way. */
async function membersHearing(tx: Tx, sender: UserRow, memberIds: string[], now: number): Promise<Hearer[]> {
  const others = memberIds.filter((id) => id !== sender.id);
  const [rows, blockers, blocked] = await Promise.all([
    tx.getMany(tables.users, others),
    blockersAmong(tx, others, sender.id),
    blockedBy(tx, sender.id, others),
  ]);
  const users = new Map(others.map((id, i) => [id, rows[i]]));
  const hearers: Hearer[] = [];
  for (const id of memberIds) {
    const user = id === sender.id ? sender : users.get(id);
    if (!user || user.deletedAt !== null) continue;
    if (user.id !== sender.id && !hearsMessage(user, blockers.has(user.id) || blocked.has(user.id))) continue;
    hearers.push({ user, child: isChild(user, now) });
  }
  return hearers;
}

/**
 * What `audienceOf` decides on, asked for before it runs: everything but the
 * sender is known from the channel, so these go with the send's first reads
 * (one message on a database) instead of one after another.
 */
export type AudienceReads =
  | { kind: typeof ChannelKind.Dm; recipient: Promise<UserRow | undefined>; friends: Promise<boolean>; blockedBy: Promise<boolean>; youBlocked: Promise<boolean> }
  | { kind: typeof ChannelKind.Group | typeof ChannelKind.Session; membership: Promise<unknown>; memberIds: Promise<string[]> };

/** Starts the reads `audienceOf` needs for `senderId` on `channel`. */
export function audienceReads(tx: Tx, senderId: string, channel: ChatChannel): AudienceReads {
  if (channel.kind === ChannelKind.Dm) {
    return {
      kind: channel.kind,
      recipient: early(tx.get(tables.users, channel.id)),
      friends: early(areFriends(tx, senderId, channel.id)),
      blockedBy: early(hasBlocked(tx, channel.id, senderId)),
      youBlocked: early(hasBlocked(tx, senderId, channel.id)),
    };
  }
  const [membership, members] = channel.kind === ChannelKind.Group
    ? [tx.get(tables.groupMembers, `${channel.id}:${senderId}`), tx.query(tables.groupMembers, "byGroup", { equals: [channel.id] })]
    : [tx.get(tables.sessionMembers, `${channel.id}:${senderId}`), tx.query(tables.sessionMembers, "bySession", { equals: [channel.id] })];
  return { kind: channel.kind, membership: early(membership), memberIds: early(members.then((rows) => rows.map((m) => m.userId))) };
}

/**
 * Checks that `sender` may write on `channel`; answers who hears the message, or throws the refusal.
 * `reads`: from `audienceReads` for the same sender and channel, when started earlier.
 */
export async function audienceOf(tx: Tx, sender: UserRow, channel: ChatChannel, now: number, reads = audienceReads(tx, sender.id, channel)): Promise<Audience> {
  const party = partyOf(sender, now);
  if (party.guest) throw refusalError(ChatRefusal.Guest, channel);
  const key = conversationKey(channel, sender.id);
  if (reads.kind === ChannelKind.Dm) {
    if (channel.id === sender.id) throw refusalError(ChatRefusal.Self, channel);
    const recipient = await reads.recipient;
    if (!recipient || recipient.deletedAt !== null) throw fail.notFound("channel: no such user");
    const [friends, blockedBy, youBlocked] = await Promise.all([reads.friends, reads.blockedBy, reads.youBlocked]);
    const refusal = dmRefusal({
      sender: party,
      recipient: { ...partyOf(recipient, now), whoCanMessage: recipient.settings.whoCanMessage },
      friends, blockedBy, youBlocked,
    });
    if (refusal) throw refusalError(refusal, channel);
    return { key, hearers: [{ user: sender, child: party.child }, { user: recipient, child: isChild(recipient, now) }] };
  }
  const refusal = channelRefusal(party, (await reads.membership) !== undefined);
  if (refusal) throw refusalError(refusal, channel);
  return { key, hearers: await membersHearing(tx, sender, await reads.memberIds, now) };
}

/** A conversation a user may read: its key, and since when they are a member (0 for DMs). */
export interface Readable {
  key: string;
  joinedAt: number;
}

/** The conversation `me` names `channel`, when they may read it; `not_found` otherwise (nothing leaks about others' channels). */
export async function readableConversation(tx: Tx, me: string, channel: ChatChannel): Promise<Readable> {
  const found = await readable(tx, me, channel);
  if (!found) throw channel.kind === ChannelKind.Dm ? fail.notFound("channel: no such conversation") : fail.notFound(`channel: no such ${channel.kind} of yours`);
  return found;
}

/** The conversation `me` names `channel`, or null when they may not read it. */
async function readable(tx: Tx, me: string, channel: ChatChannel): Promise<Readable | null> {
  if (channel.kind === ChannelKind.Dm) {
    const key = dmKey(me, channel.id);
    // Both sides of a DM get a read marker with its first message.
    return (await tx.get(tables.chatReads, readId(me, key))) ? { key, joinedAt: 0 } : null;
  }
  const membership = channel.kind === ChannelKind.Group
    ? await tx.get(tables.groupMembers, `${channel.id}:${me}`)
    : await tx.get(tables.sessionMembers, `${channel.id}:${me}`);
  return membership ? { key: conversationKey(channel, me), joinedAt: membership.joinedAt } : null;
}

/** Whether `me` is in the conversation of a stored message (may read it, as `readableConversation` says). */
export async function inConversation(tx: Tx, me: string, key: string): Promise<boolean> {
  const pair = dmParticipants(key);
  if (pair && !pair.includes(me)) return false;
  const channel: ChatChannel | null = pair ? { kind: ChannelKind.Dm, id: pair[0] === me ? pair[1] : pair[0] } : parseChannel(key);
  if (!channel) return false;
  return (await readable(tx, me, channel)) !== null;
}

/** The primary key of a user's read marker in a conversation. */
export const readId = (userId: string, key: string) => `${userId}|${key}`;

/*
 * Who may write where in chat (DESIGN.md: guests have no chat; under 13:
 * no DMs with non-friends, filtered chat). Pure: the server reads the facts
 * and maps a refusal to an error.
 */

/** Why a chat message was refused. */
export const ChatRefusal = {
  /** The sender is a guest: guests have no chat. */
  Guest: "guest",
  /** A DM to oneself. */
  Self: "self",
  /** The recipient blocked the sender: answered as if the user did not exist. */
  BlockedBy: "blocked_by",
  /** The sender blocked the recipient. */
  YouBlocked: "you_blocked",
  /** The recipient is a guest. */
  RecipientGuest: "recipient_guest",
  /** The recipient's `whoCanMessage` (or their being under 13) keeps the sender out. */
  NotAccepting: "not_accepting",
  /** An under-13 sender may message friends only. */
  ChildNonFriend: "child_non_friend",
  /** Not a member of the group or session. */
  NotMember: "not_member",
} as const;
export type ChatRefusal = (typeof ChatRefusal)[keyof typeof ChatRefusal];

export type WhoCanMessage = "everyone" | "friends" | "nobody";

/** What the rules need of a chat user. */
export interface ChatParty {
  id: string;
  guest: boolean;
  /** Under 13 on the day of the message. */
  child: boolean;
}

/** What is stored about a DM's two sides. */
export interface DmFacts {
  sender: ChatParty;
  recipient: ChatParty & { whoCanMessage: WhoCanMessage };
  friends: boolean;
  /** The recipient blocked the sender. */
  blockedBy: boolean;
  /** The sender blocked the recipient. */
  youBlocked: boolean;
}

/**
 * Why a DM may not be sent, or null when it may. Checked in this order, so
 * a refusal never tells the sender more than they may know: the recipient's
 * block reads like a missing user, and an under-13 recipient's limit reads
 * like a `friends` setting.
 */
export function dmRefusal(facts: DmFacts): ChatRefusal | null {
  const { sender, recipient } = facts;
  if (sender.guest) return ChatRefusal.Guest;
  if (sender.id === recipient.id) return ChatRefusal.Self;
  if (facts.blockedBy) return ChatRefusal.BlockedBy;
  if (facts.youBlocked) return ChatRefusal.YouBlocked;
  if (recipient.guest) return ChatRefusal.RecipientGuest;
  if (sender.child && !facts.friends) return ChatRefusal.ChildNonFriend;
  if (!mayMessage(recipient.whoCanMessage, recipient.child, facts.friends)) return ChatRefusal.NotAccepting;
  return null;
}

/** Whether a user with this setting (and age) accepts a DM from a friend or from a non-friend. */
export function mayMessage(setting: WhoCanMessage, child: boolean, friends: boolean): boolean {
  if (setting === "nobody") return false;
  if (setting === "friends" || child) return friends;
  return true;
}

/** Why a message to a group or session channel may not be sent, or null when it may. */
export function channelRefusal(sender: ChatParty, isMember: boolean): ChatRefusal | null {
  if (sender.guest) return ChatRefusal.Guest;
  if (!isMember) return ChatRefusal.NotMember;
  return null;
}

/**
 * Whether a member of a group or session hears a message: not guests (no
 * chat), and not when either side blocked the other.
 */
export function hearsMessage(member: { guest: boolean }, blockedEitherWay: boolean): boolean {
  return !member.guest && !blockedEitherWay;
}

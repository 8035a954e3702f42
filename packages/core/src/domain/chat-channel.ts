/*
 * Chat channel names. A caller names a channel `dm:<the other user's id>`,
 * `group:<groupId>` or `session:<sessionId>`; the conversation behind a DM
 * is the same for both sides, so it is stored under a symmetric key
 * (`dm:<smaller id>:<larger id>`) and each side's channel name is rendered
 * from it.
 */

/** The kinds of chat channel. */
export const ChannelKind = {
  Dm: "dm",
  Group: "group",
  Session: "session",
} as const;
export type ChannelKind = (typeof ChannelKind)[keyof typeof ChannelKind];

/** A channel as a caller names it, parsed. */
export interface ChatChannel {
  kind: ChannelKind;
  /** The other user (dm), the group or the session. */
  id: string;
}

/** The longest id a channel may name. */
export const CHANNEL_ID_MAX = 100;

const CHANNEL = /^(dm|group|session):([^\s:]+)$/;

/** Parses a channel name; null when it is not `dm:<id>`, `group:<id>` or `session:<id>` with an id of 1 to 100 characters and no colon or space. */
export function parseChannel(text: string): ChatChannel | null {
  const m = CHANNEL.exec(text);
  if (!m || m[2]!.length > CHANNEL_ID_MAX) return null;
  return { kind: m[1] as ChannelKind, id: m[2]! };
}

/** The stored conversation key of a channel named by `me`: symmetric for DMs. */
export function conversationKey(channel: ChatChannel, me: string): string {
  if (channel.kind !== ChannelKind.Dm) return `${channel.kind}:${channel.id}`;
  return dmKey(me, channel.id);
}

/** The conversation key of the DM between two users, the same whichever side asks. */
export function dmKey(a: string, b: string): string {
  return a < b ? `dm:${a}:${b}` : `dm:${b}:${a}`;
}

/** The two users of a DM conversation key, or null for other keys. */
export function dmParticipants(key: string): [string, string] | null {
  const parts = key.split(":");
  if (parts.length !== 3 || parts[0] !== ChannelKind.Dm) return null;
  return [parts[1]!, parts[2]!];
}

/** The channel name `viewer` knows a conversation by: `dm:<the other user>` for DMs, the key itself otherwise. */
export function channelFor(key: string, viewer: string): string {
  const pair = dmParticipants(key);
  if (!pair) return key;
  return `dm:${pair[0] === viewer ? pair[1] : pair[0]}`;
}

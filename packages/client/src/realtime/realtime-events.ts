/*
 * The realtime messages the server sends, as the client types them. Every
 * message is a JSON object with a `type`; types not listed here arrive as
 * `RealtimeMessage`.
 */

/** Any realtime message. */
export interface RealtimeMessage {
  type: string;
  [field: string]: unknown;
}

/** A user as realtime messages show them (the API's UserSummary). */
export interface RealtimeUser {
  id: string;
  username: string;
  displayName: string;
  headshotUrl: string;
}

/** One member of a session roster. */
export interface RealtimeMember {
  user: RealtimeUser;
  /** ISO time. */
  joinedAt: string;
  isHost: boolean;
  guest: boolean;
}

/** The connection is authenticated. */
export interface ReadyEvent { type: "ready"; userId: string }

/** A session's roster changed: sent to everyone in it. */
export interface SessionMembersEvent { type: "session_members"; sessionId: string; members: RealtimeMember[] }

/** A friend invited you into their session: join it with `session.join({ experienceId, sessionId })`. */
export interface GameInviteEvent { type: "game_invite"; from: RealtimeUser; experienceId: string; sessionId: string; title: string }

/** A peer-tier WebRTC signalling message from another member of a session. */
export interface SignalEvent { type: "signal"; sessionId: string; from: string; data: unknown }

/** A message of yours was refused (`about` is its type; a refused `chat_send` names its `clientMessageId`). */
export interface RealtimeErrorEvent {
  type: "error";
  about: string;
  code: string;
  message: string;
  clientMessageId?: string;
  /** With `resource_exhausted`: how long to wait before the same message would be accepted. */
  retryAfterMs?: number;
}

/**
 * A chat message on a channel of yours (your own included, on every one of
 * your connections). `channel` is as you name it: `dm:<the other user>`,
 * `group:<id>`, `session:<id>`; `text` is as you may read it (filtered for
 * under-13 readers).
 */
export interface ChatMessageEvent { type: "chat_message"; messageId: string; channel: string; sender: RealtimeUser; text: string; sentAt: string }

/** Your `chat_send` was stored (`duplicate`: a resend of a stored clientMessageId, not stored or delivered again). */
export interface ChatAckEvent { type: "chat_ack"; clientMessageId: string; messageId: string; channel: string; sentAt: string; duplicate: boolean }

/** Where a user is, as their friends see it (ListFriends' `presence`). */
export type PresenceStatus = "online" | "in_game" | "offline";

/**
 * A friend's presence changed (`experienceId` only while `in_game`). Sent to
 * each of your connections when it changes; a new connection first gets one
 * for each friend who is not offline. A user who stops being your friend
 * (unfriended, blocked, or blocking you) gets a last `offline` and then
 * nothing; anyone you hear nothing about is `offline`.
 */
export interface PresenceEvent { type: "presence"; userId: string; presence: PresenceStatus; experienceId?: string }

/** The messages the client knows by type. */
export interface RealtimeEventMap {
  ready: ReadyEvent;
  session_members: SessionMembersEvent;
  game_invite: GameInviteEvent;
  signal: SignalEvent;
  chat_message: ChatMessageEvent;
  chat_ack: ChatAckEvent;
  presence: PresenceEvent;
  error: RealtimeErrorEvent;
}

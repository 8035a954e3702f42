import type { ServerEventMap } from "@playfield/core";

/*
 * The realtime messages the server sends, as the client types them: each is
 * the type of its schema in the core (`realtime.SERVER_EVENT_SCHEMAS`), so
 * the server, the client and docs/realtime.md read one description. Type
 * imports only: no zod at run time. Types not listed arrive as
 * `RealtimeMessage`.
 */

/** Any realtime message. */
export interface RealtimeMessage {
  type: string;
  [field: string]: unknown;
}

/** The messages the client knows by type. */
export type RealtimeEventMap = ServerEventMap;

/** The connection is authenticated. */
export type ReadyEvent = ServerEventMap["ready"];
/** A session's roster changed: sent to everyone in it. */
export type SessionMembersEvent = ServerEventMap["session_members"];
/** One member of a session roster. */
export type RealtimeMember = SessionMembersEvent["members"][number];
/** A user as realtime messages show them (the API's UserSummary). */
export type RealtimeUser = RealtimeMember["user"];
/** A friend invited you into their session: join it with `session.join({ experienceId, sessionId })`. */
export type GameInviteEvent = ServerEventMap["game_invite"];
/** A peer-tier WebRTC signalling message from another member of a session. */
export type SignalEvent = ServerEventMap["signal"];
/** A message of yours was refused (`about` is its type; a refused `chat_send` names its `clientMessageId`). */
export type RealtimeErrorEvent = ServerEventMap["error"];
/** A chat message on a channel of yours (your own included, on every one of your connections). */
export type ChatMessageEvent = ServerEventMap["chat_message"];
/** Your `chat_send` was stored (`duplicate`: a resend of a stored clientMessageId, not stored or delivered again). */
export type ChatAckEvent = ServerEventMap["chat_ack"];
/** A friend's presence changed (`experienceId` only while `in_game`). */
export type PresenceEvent = ServerEventMap["presence"];
/** Where a user is, as their friends see it (ListFriends' `presence`). */
export type PresenceStatus = PresenceEvent["presence"];

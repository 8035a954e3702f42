import { z } from "zod";
import { Code } from "../errors/code.js";
import { UserSummary } from "../schemas/common.js";

/*
 * Server → client events of the realtime connection, described once: the
 * client's event types derive from these, docs/realtime.md is generated
 * from them, and tests check what the server sends against them. Each
 * schema's `sentTo` says who receives it.
 */

const event = <const T extends string, S extends z.ZodRawShape>(type: T, id: string, shape: S, meta: { description: string; sentTo: string }) =>
  z.object({ type: z.literal(type), ...shape }).meta({ id, ...meta });

const isoTime = () => z.string().describe("ISO time");

export const ReadyEvent = event("ready", "ReadyEvent", { userId: z.string() }, {
  description: "The connection is authenticated (or renewed).",
  sentTo: "the connection, after `auth`",
});

export const PongEvent = event("pong", "PongEvent", {}, {
  description: "The answer to `ping`.",
  sentTo: "the connection, after `ping`",
});

/** Where a user is, as their friends see it (ListFriends' `presence`). */
export const PRESENCE_STATUSES = ["online", "in_game", "offline"] as const;

export const PresenceEvent = event("presence", "PresenceEvent", {
  userId: z.string(),
  presence: z.enum(PRESENCE_STATUSES),
  experienceId: z.string().optional().describe("only with `in_game`"),
}, {
  description: "A friend's presence changed. A new connection first gets one for each friend who is not offline; a former friend's last word is `offline` (see *Presence*).",
  sentTo: "the user's friends with a live connection",
});

export const RealtimeMember = z.object({
  user: UserSummary,
  joinedAt: isoTime(),
  isHost: z.boolean(),
  guest: z.boolean(),
}).meta({ id: "RealtimeMember" });

export const SessionMembersEvent = event("session_members", "SessionMembersEvent", {
  sessionId: z.string(),
  members: z.array(RealtimeMember).describe("in join order"),
}, {
  description: "A session's roster changed.",
  sentTo: "everyone in the session, on every roster change",
});

export const GameInviteEvent = event("game_invite", "GameInviteEvent", {
  from: UserSummary,
  experienceId: z.string(),
  sessionId: z.string(),
  title: z.string(),
}, {
  description: "A friend invited you into their session: join it with `session.join({ experienceId, sessionId })`.",
  sentTo: "the invited friend",
});

export const SignalEvent = event("signal", "SignalEvent", {
  sessionId: z.string(),
  from: z.string().describe("the sender's user id"),
  data: z.unknown().describe("the JSON value the sender sent"),
}, {
  description: "A peer-tier WebRTC signalling message from another member of a session.",
  sentTo: "the member a signal was sent to",
});

export const ChatMessageEvent = event("chat_message", "ChatMessageEvent", {
  messageId: z.string(),
  channel: z.string().describe("as the reader names it: `dm:<the other user>`, `group:<id>`, `session:<id>`"),
  sender: UserSummary,
  text: z.string().describe("what the reader may read: filtered for under-13 readers"),
  sentAt: isoTime(),
}, {
  description: "A chat message on a channel of yours, your own included ([chat.md](chat.md)).",
  sentTo: "every connection of every member of the channel, the sender's included",
});

export const ChatAckEvent = event("chat_ack", "ChatAckEvent", {
  clientMessageId: z.string(),
  messageId: z.string().describe("the stored message's id"),
  channel: z.string(),
  sentAt: isoTime(),
  duplicate: z.boolean().describe("a resend of a stored clientMessageId: not stored or delivered again"),
}, {
  description: "Your `chat_send` was stored.",
  sentTo: "the sending connection",
});

export const RealtimeErrorEvent = event("error", "RealtimeErrorEvent", {
  about: z.string().describe("the type of the refused frame"),
  code: z.enum(Object.values(Code) as [Code, ...Code[]]).describe("an API error code"),
  message: z.string().describe("`field: rule` for invalid_argument"),
  clientMessageId: z.string().optional().describe("the refused frame's `clientMessageId`, if it had one"),
  retryAfterMs: z.number().optional().describe("with `resource_exhausted`: the wait until the same frame would be accepted"),
}, {
  description: "A frame of yours was refused: an unknown `type`, a field breaking its rule, or a refusal of the service.",
  sentTo: "the connection whose frame was refused",
});

/** Every server event schema, in the order docs list them. */
export const SERVER_EVENT_SCHEMAS = [
  ReadyEvent, PresenceEvent, SessionMembersEvent, GameInviteEvent, SignalEvent, ChatMessageEvent, ChatAckEvent, PongEvent, RealtimeErrorEvent,
] as const;

/** Every server event schema by its `type`. */
export const SERVER_EVENTS: ReadonlyMap<string, (typeof SERVER_EVENT_SCHEMAS)[number]> = new Map(
  SERVER_EVENT_SCHEMAS.map((schema) => [schema.shape.type.value, schema]),
);

/** Any event the server sends. */
export type ServerEvent = z.output<(typeof SERVER_EVENT_SCHEMAS)[number]>;
/** Server events by type. */
export type ServerEventMap = { [E in ServerEvent as E["type"]]: E };

/* The realtime connection of the client. */
export { createRealtime, type Realtime, type RealtimeOptions, type RealtimeState, type WebSocketLike, type WebSocketConstructor } from "./create-realtime.js";
export { friendPresence, type FriendPresence, type FriendPresenceState } from "./friend-presence.js";
export type {
  RealtimeMessage, RealtimeUser, RealtimeMember, RealtimeEventMap,
  ReadyEvent, SessionMembersEvent, GameInviteEvent, SignalEvent, RealtimeErrorEvent,
  ChatMessageEvent, ChatAckEvent, PresenceEvent, PresenceStatus,
} from "./realtime-events.js";

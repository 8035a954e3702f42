export { RealtimeCloseCode, REALTIME_CLOSE_CODE_DOCS } from "./close-code.js";
export {
  AuthFrame, PingFrame, ChatSendFrame, SignalFrame, CLIENT_FRAME_SCHEMAS, CLIENT_FRAMES, REALTIME_FRAME_MAX_BYTES, SIGNAL_DATA_MAX_BYTES,
  type ClientFrame, type ClientFrameInput, type ClientFrameMap,
} from "./client-frames.js";
export {
  ReadyEvent, PongEvent, PresenceEvent, SessionMembersEvent, GameInviteEvent, SignalEvent, ChatMessageEvent, ChatAckEvent, RealtimeErrorEvent,
  RealtimeMember, PRESENCE_STATUSES, SERVER_EVENT_SCHEMAS, SERVER_EVENTS, type ServerEvent, type ServerEventMap,
} from "./server-events.js";
export { readClientFrame, type FrameReading } from "./read-client-frame.js";
export { REALTIME_AUTH } from "./connection-auth.js";

import type { ServerDeps } from "../server-deps.js";
import type { RealtimeEvent } from "../ports/realtime-hub.js";
import { chatSendHandler } from "./chat-handler.js";
import { signalHandler } from "./signal-handler.js";

/*
 * Handlers of client → server realtime messages, by `type`. A connection
 * dispatches every message after `auth` here; a type with no handler
 * answers an `error` event. Services add their types (chat, presence) as
 * one line in `defaultMessageHandlers`.
 */

/** Who sent a message, and how to answer them on that connection alone. */
export interface MessageContext {
  deps: ServerDeps;
  userId: string;
  deviceId: string;
  /** Sends an event to the sending connection only. */
  reply(event: RealtimeEvent): void;
}

/** Handles one client message; a thrown PlayfieldError becomes an `error` event naming the message type. */
export type MessageHandler = (message: RealtimeEvent, ctx: MessageContext) => Promise<void> | void;

export type MessageHandlers = Readonly<Record<string, MessageHandler>>;

/** The handlers every connection gets (`auth` and `ping` are the connection's own). */
export const defaultMessageHandlers: MessageHandlers = {
  signal: signalHandler,
  chat_send: chatSendHandler,
};

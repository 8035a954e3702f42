import { fail, type ClientFrame, type ClientFrameMap, type ServerEvent } from "@playfield/core";
import type { ServerDeps } from "../server-deps.js";
import { chatSendHandler } from "./chat-handler.js";
import { signalHandler } from "./signal-handler.js";

/*
 * Handlers of client → server realtime frames, by `type`. A connection
 * reads every frame against the core's schemas (`realtime.CLIENT_FRAMES`)
 * before it reaches a handler, so a handler receives a valid, typed frame.
 * A frame type is added with its schema in the core and one line in
 * `defaultMessageHandlers`.
 */

/** Who sent a frame, and how to answer them on that connection alone. */
export interface MessageContext {
  deps: ServerDeps;
  userId: string;
  deviceId: string;
  /** Sends an event to the sending connection only. */
  reply(event: ServerEvent): void;
}

/** The frame types handlers take (`auth` and `ping` are the connection's own). */
export type HandledFrame = Exclude<ClientFrame, { type: "auth" | "ping" }>;

/** Handles one valid frame of its type; a thrown PlayfieldError becomes an `error` event naming the type. */
export type MessageHandler<T extends HandledFrame["type"] = HandledFrame["type"]> = (frame: ClientFrameMap[T], ctx: MessageContext) => Promise<void> | void;

export type MessageHandlers = { readonly [T in HandledFrame["type"]]?: MessageHandler<T> };

/** The handlers every connection gets. */
export const defaultMessageHandlers: MessageHandlers = {
  signal: signalHandler,
  chat_send: chatSendHandler,
};

/** Runs the handler of a frame's type; a server without one answers `unimplemented`. */
export async function handleFrame(handlers: MessageHandlers, frame: HandledFrame, ctx: MessageContext): Promise<void> {
  const handler = (Object.hasOwn(handlers, frame.type) ? handlers[frame.type] : undefined) as MessageHandler | undefined;
  if (!handler) throw fail.unimplemented(`type: ${frame.type} is not served here`);
  await handler(frame, ctx);
}

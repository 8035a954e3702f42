import { Code, PlayfieldError, type ServerEventMap } from "@playfield/core";
import { iso } from "../services/identity/accounts.js";
import { channelOf } from "../services/chat/access.js";
import { chatCharge } from "../services/chat/rate.js";
import { deliverChat, storeChat } from "../services/chat/send.js";
import type { MessageHandler } from "./message-handlers.js";

/**
 * Handles `chat_send` (its fields already checked against the core's
 * schema: channel shape, text normalised, clientMessageId): stores the
 * message, delivers `chat_message` to every connection of everyone who
 * hears it, and answers the sending connection `chat_ack` with the stored
 * id (a resent clientMessageId answers the same id, stored and delivered
 * once). A refusal answers `error` with `about: "chat_send"` and the
 * clientMessageId; over the sender's rate limit, `resource_exhausted` with
 * `retryAfterMs` (services/chat/rate.ts).
 */
export const chatSendHandler: MessageHandler<"chat_send"> = async (frame, ctx) => {
  const { clientMessageId } = frame;
  const charge = chatCharge(ctx.deps, ctx.userId);
  try {
    const channel = channelOf(frame.channel);
    const sent = await storeChat(ctx.deps, ctx.userId, { channel, text: frame.text, clientMessageId }, charge);
    if (!sent.duplicate) deliverChat(ctx.deps, sent);
    ctx.reply({
      type: "chat_ack", clientMessageId, messageId: sent.message.id, channel: frame.channel,
      sentAt: iso(sent.message.createdAt), duplicate: sent.duplicate,
    });
  } catch (reason) {
    // Internal failures go to the endpoint, which logs them and hides their message.
    if (!(reason instanceof PlayfieldError) || reason.code === Code.Internal) throw reason;
    const error: ServerEventMap["error"] = { type: "error", about: "chat_send", code: reason.code, message: reason.rawMessage, clientMessageId };
    if (charge.retryAfterMs !== undefined) error.retryAfterMs = charge.retryAfterMs;
    ctx.reply(error);
  }
};

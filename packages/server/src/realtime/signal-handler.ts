import { fail, tables } from "@playfield/core";
import type { MessageHandler } from "./message-handlers.js";

/** The largest `data` of a signal, as JSON: SDP offers with many candidates fit. */
export const MAX_SIGNAL_BYTES = 16 * 1024;

/**
 * Relays peer-tier WebRTC signalling: `{type:"signal", sessionId, to, data}`
 * from a member of a session reaches every connection of `to` as
 * `{type:"signal", sessionId, from, data}`, only when both are members of
 * that session.
 */
export const signalHandler: MessageHandler = async (message, ctx) => {
  const { sessionId, to, data } = message;
  if (typeof sessionId !== "string" || sessionId === "") throw fail.invalid("sessionId: required");
  if (typeof to !== "string" || to === "") throw fail.invalid("to: required");
  if (data === undefined) throw fail.invalid("data: required");
  if (JSON.stringify(data).length > MAX_SIGNAL_BYTES) throw fail.invalid(`data: at most ${MAX_SIGNAL_BYTES} bytes as JSON`);
  if (to === ctx.userId) throw fail.invalid("to: not yourself");
  const [sender, recipient] = await ctx.deps.storage.transact((tx) => Promise.all([
    tx.get(tables.sessionMembers, `${sessionId}:${ctx.userId}`),
    tx.get(tables.sessionMembers, `${sessionId}:${to}`),
  ]));
  // Not a member, or `to` not in the session: the same answer, so nothing leaks about other sessions.
  if (!sender || !recipient) throw fail.notFound("to: no such member in a session of yours");
  ctx.deps.realtime.publish(to, { type: "signal", sessionId, from: ctx.userId, data });
};

import { fail, tables } from "@playfield/core";
import type { MessageHandler } from "./message-handlers.js";

/**
 * Relays peer-tier WebRTC signalling: `{type:"signal", sessionId, to, data}`
 * (checked against the core's schema: ids, `data` any JSON up to 16 KiB and
 * 32 levels) from a member of a session reaches every connection of `to` as
 * `{type:"signal", sessionId, from, data}`, only when both are members of
 * that session.
 */
export const signalHandler: MessageHandler<"signal"> = async (frame, ctx) => {
  const { sessionId, to, data } = frame;
  if (to === ctx.userId) throw fail.invalid("to: not yourself");
  const [sender, recipient] = await ctx.deps.storage.transact((tx) => Promise.all([
    tx.get(tables.sessionMembers, `${sessionId}:${ctx.userId}`),
    tx.get(tables.sessionMembers, `${sessionId}:${to}`),
  ]));
  // Not a member, or `to` not in the session: the same answer, so nothing leaks about other sessions.
  if (!sender || !recipient) throw fail.notFound("to: no such member in a session of yours");
  ctx.deps.realtime.publish(to, { type: "signal", sessionId, from: ctx.userId, data });
};

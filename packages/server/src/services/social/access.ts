import { fail, SocialService, tables, type Tx, type UserRow } from "@playfield/core";
import { authorize } from "../../rpc/authorize.js";
import type { HandlerContext } from "../../rpc/handler-context.js";
import { hasBlocked } from "./graph.js";

/*
 * Who is asking and about whom, for the social, avatar and safety services.
 */

/**
 * The caller of a method open to anyone (auth None), when the request
 * carries a good access token; null otherwise. A bad token is ignored, as
 * the method asks for none: it only personalises the answer (SearchUsers
 * leaves out users who blocked the caller).
 */
export async function optionalViewerId(ctx: HandlerContext): Promise<string | null> {
  const known = ctx.viewerId;
  if (known !== null || !ctx.header("authorization")) return known;
  try {
    const caller = await authorize(ctx.deps, SocialService.methods.getProfile, ctx.header("authorization"));
    return caller.kind === "user" ? caller.userId : null;
  } catch {
    return null;
  }
}

/**
 * The live user `userId` as `viewer` may see them: `not_found` when there is
 * no such user or they blocked the viewer (a blocked user is not told).
 */
export async function visibleUser(tx: Tx, userId: string, viewer: string | null, field = "userId"): Promise<UserRow> {
  const user = await tx.get(tables.users, userId);
  if (!user || user.deletedAt !== null) throw fail.notFound(`${field}: no such user`);
  if (viewer !== null && viewer !== userId && (await hasBlocked(tx, userId, viewer))) throw fail.notFound(`${field}: no such user`);
  return user;
}

/** The target of a social move (friend, follow): visible, not the caller, an account. */
export async function socialTarget(tx: Tx, userId: string, caller: string, what: string): Promise<UserRow> {
  if (userId === caller) throw fail.invalid(`userId: you cannot ${what} yourself`);
  const user = await visibleUser(tx, userId, caller);
  if (user.guest) throw fail.precondition(`userId: guests cannot be ${what === "follow" ? "followed" : "friended"}`);
  return user;
}

import { Code, PlayfieldError, TokenType, type TokenClaims, type UserRow } from "@playfield/core";
import { describe, expect, it } from "vitest";
import type { Caller } from "../../src/rpc/caller.js";
import { createHandlerContext } from "../../src/rpc/handler-context.js";
import type { ServerDeps } from "../../src/server-deps.js";

/*
 * The signed-in-caller check, in the one place services read it: `ctx.user()`
 * for methods that need a user, `ctx.viewerId` for answers personalised when
 * someone is signed in.
 */

const claims = { sub: "usr_1", sid: "dev_1", typ: TokenType.Access } as TokenClaims;
/** The row each user caller carries; this test reads only who the caller is. */
const account = {} as UserRow;
const CALLERS: Record<string, Caller> = {
  anonymous: { kind: "anonymous" },
  account: { kind: "user", userId: "usr_1", deviceId: "dev_1", guest: false, scope: null, claims, account },
  guest: { kind: "user", userId: "usr_2", deviceId: "dev_2", guest: true, scope: null, claims, account },
  scoped: { kind: "user", userId: "usr_3", deviceId: "dev_3", guest: false, scope: "studio", claims, account },
  game: { kind: "game", userId: "usr_4", deviceId: "dev_4", sessionId: "gs_1", experienceId: "exp_1", claims },
};
const contextOf = (caller: Caller) => createHandlerContext({} as ServerDeps, caller, () => null, null);

describe("HandlerContext: who the signed-in caller is", () => {
  it.each(["account", "guest", "scoped"])("should answer a %s caller's user and id", (name) => {
    const caller = CALLERS[name]!;
    const ctx = contextOf(caller);
    expect(ctx.user()).toBe(caller);
    expect(ctx.viewerId).toBe((caller as { userId: string }).userId);
  });

  it.each(["anonymous", "game"])("should refuse a %s caller as unauthenticated, and show no viewer", (name) => {
    const ctx = contextOf(CALLERS[name]!);
    expect(ctx.viewerId).toBeNull();
    let thrown: unknown;
    try {
      ctx.user();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PlayfieldError);
    expect((thrown as PlayfieldError).code).toBe(Code.Unauthenticated);
  });
});

import { fail } from "@playfield/core";
import type { ServerDeps } from "../server-deps.js";
import type { Caller, UserCaller } from "./caller.js";

/** What a method implementation receives besides its request. */
export interface HandlerContext {
  deps: ServerDeps;
  /** Who is calling, as the auth check found them. */
  caller: Caller;
  /** A request header by lowercase name (x-svc-client, origin), or null. */
  header(name: string): string | null;
  /** The client's address, when the adapter knows it. */
  clientAddress: string | null;
  /**
   * The signed-in user (access or scoped token). Throws `unauthenticated` for
   * anyone else; the auth check has already refused them on methods whose
   * auth level needs a user, so this only narrows the type there.
   */
  user(): UserCaller;
  /** The signed-in user's id, or null (anonymous callers of Optional methods): answers are personalised with it. */
  viewerId: string | null;
}

/** Where a context reads the call's headers: the call itself (its `header` method). */
export interface HeaderSource {
  header(name: string): string | null;
}

/**
 * The context of one call: the one place that says who the signed-in caller
 * is. A class reading headers from the call, so that a call builds one
 * object here and no closures.
 */
export class CallContext implements HandlerContext {
  readonly viewerId: string | null;
  constructor(readonly deps: ServerDeps, readonly caller: Caller, private readonly headers: HeaderSource, readonly clientAddress: string | null) {
    this.viewerId = caller.kind === "user" ? caller.userId : null;
  }
  header(name: string): string | null {
    return this.headers.header(name);
  }
  user(): UserCaller {
    if (this.caller.kind !== "user") throw fail.unauthenticated("sign in first: no access token");
    return this.caller;
  }
}

/** The context of one call whose headers `header` reads. */
export function createHandlerContext(deps: ServerDeps, caller: Caller, header: (name: string) => string | null, clientAddress: string | null): HandlerContext {
  return new CallContext(deps, caller, { header }, clientAddress);
}

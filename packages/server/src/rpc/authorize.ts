import { fail, tables, TokenType, type AuthRule, type DeviceRow, type TokenClaims, type Tx, type UserRow } from "@playfield/core";
import type { Caller } from "./caller.js";
import type { ServerDeps } from "../server-deps.js";
import { ignore } from "../services/early-reads.js";

// The header every client sends: "Bearer", one space, a token of printable ASCII. Its test costs a third less
// than BEARER's, and on a match BEARER would capture the same token.
const PLAIN_BEARER = /^Bearer [!-~]+$/;
const BEARER = /^Bearer[ ]+(\S+)\s*$/i;

/** The bearer token of an Authorization header, or null when there is none. */
export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  if (PLAIN_BEARER.test(header)) return header.slice(7);
  const match = BEARER.exec(header);
  if (!match) throw fail.unauthenticated("authorization: expected `Bearer <token>`");
  return match[1]!;
}

/**
 * Decides who is calling a method and whether they may: the method's auth
 * level and scopes are the only input, so every method is checked the same
 * way before its implementation runs. Revocation (signed-out device, changed
 * password, deleted account, left game session) is checked on every call.
 */
export async function authorize(deps: ServerDeps, method: AuthRule, authorization: string | null): Promise<Caller> {
  if (method.auth === "none") return { kind: "anonymous" };
  const token = bearerToken(authorization);
  if (token === null) {
    if (method.auth === "optional") return { kind: "anonymous" };
    throw fail.unauthenticated(method.auth === "game" ? "a game token from SessionService.Join is required" : "sign in first: no access token");
  }
  const now = deps.clock.now();
  const claims = await deps.signer.verify(token, now);
  // Read-only: on a database, the reads and the commit go in one round trip.
  const caller = await deps.storage.transact((tx) => liveCaller(tx, claims), { readOnly: true });

  if (method.auth === "game") {
    if (caller.kind !== "game") throw fail.denied("this method needs a game token from SessionService.Join");
    return caller;
  }
  if (caller.kind === "game") throw fail.denied("a game token only reaches DatastoreService");
  if (caller.scope !== null && !method.scopes.includes(caller.scope as never)) {
    throw fail.denied(`a ${caller.scope} scoped token cannot call ${method.name}`);
  }
  // The auth level holds for scoped tokens too: a guest's avatar or studio token does not reach account methods.
  if (method.auth === "account" && caller.guest) throw fail.denied(`guests cannot call ${method.name}: upgrade to an account first`);
  return caller;
}

/**
 * Why a token's device session or account no longer stands (signed out,
 * password changed, account deleted), or null while both do: the part of
 * the check that can change after the signature was verified. Realtime
 * connections are rechecked by it, in batches (realtime/session-recheck.ts).
 */
export function sessionRefusal(claims: Pick<TokenClaims, "sub">, device: DeviceRow | undefined, user: UserRow | undefined): string | null {
  if (!device || device.revokedAt !== null || device.userId !== claims.sub) return "this device was signed out";
  if (!user || user.deletedAt !== null) return "the account no longer exists";
  return null;
}

async function liveCaller(tx: Tx, claims: TokenClaims): Promise<Exclude<Caller, { kind: "anonymous" }>> {
  // Asked for together, then awaited in turn: on a database they go in one message with this read-only
  // transaction's COMMIT (a read after them would run the transaction again); a game token's membership too (its
  // id holds the user id the checks below confirm). Awaited in turn rather than through a Promise.all, whose array,
  // per-element reactions and lookups cost more than the turns; the later reads' rejections are handled at once.
  const deviceRead = tx.get(tables.devices, claims.sid);
  const userRead = tx.get(tables.users, claims.sub);
  const memberRead = claims.typ === TokenType.Game && claims.gsid ? tx.get(tables.sessionMembers, `${claims.gsid}:${claims.sub}`) : undefined;
  userRead.catch(ignore);
  memberRead?.catch(ignore);
  const device = await deviceRead;
  const user = await userRead;
  const member = memberRead && (await memberRead);
  const refusal = sessionRefusal(claims, device, user);
  // A refusal covers a missing row; testing them too tells TypeScript they are there.
  if (refusal !== null || !device || !user) throw fail.unauthenticated(refusal ?? "this device was signed out");
  switch (claims.typ) {
    case TokenType.Access:
      return { kind: "user", userId: user.id, deviceId: device.id, guest: user.guest, scope: null, claims, account: user };
    case TokenType.Scoped:
      return { kind: "user", userId: user.id, deviceId: device.id, guest: user.guest, scope: claims.scope ?? "", claims, account: user };
    case TokenType.Game: {
      if (!claims.gsid || !claims.xid) throw fail.unauthenticated("malformed game token");
      // DESIGN.md: a game token whose player left the session is permission_denied.
      if (!member) throw fail.denied("the player is no longer in this game session");
      return { kind: "game", userId: user.id, deviceId: device.id, sessionId: claims.gsid, experienceId: claims.xid, claims };
    }
    default:
      throw fail.unauthenticated("unknown token type");
  }
}

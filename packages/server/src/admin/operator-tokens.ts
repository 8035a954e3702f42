import { fail, tables, type AdminMethodDesc, type OperatorRow } from "@playfield/core";
import type { ServerDeps } from "../server-deps.js";
import { bearerToken } from "../rpc/authorize.js";

/*
 * Operator tokens: opaque random secrets with a prefix of their own, stored
 * hashed (`operator_sessions`), short-lived. A player's access token is a
 * JWT that no operator session hashes to, and an operator token is not a
 * JWT the platform's signer accepts: neither API takes the other's tokens.
 * Every call reads the session, so sign-out and removal end a token at once.
 */

/** Every operator token starts with this, so one is told from a player's token at a glance (and in leak scanners). */
export const OPERATOR_TOKEN_PREFIX = "pfop_";

/** How long an operator token lasts by default: one hour, then sign in again. */
export const DEFAULT_OPERATOR_TOKEN_SECONDS = 3600;

/** Issues a token for an operator; answers it and its expiry (ms). */
export async function issueOperatorToken(deps: ServerDeps, operator: OperatorRow, lifetimeSeconds: number): Promise<{ token: string; expiresAt: number }> {
  const token = OPERATOR_TOKEN_PREFIX + deps.ids.secret();
  const now = deps.clock.now();
  const expiresAt = now + lifetimeSeconds * 1000;
  await deps.storage.transact((tx) => tx.put(tables.operatorSessions, { hash: deps.hashSecret(token), operatorId: operator.id, createdAt: now, expiresAt }));
  return { token, expiresAt };
}

/** The signed-in operator of a call, and the hash of its token (for sign-out). */
export interface OperatorCaller {
  operator: OperatorRow;
  tokenHash: string;
}

/**
 * Who calls an admin method, checked against the method's roles before it
 * runs: `unauthenticated` without a live operator token, `permission_denied`
 * for a role the method does not list. Methods with no roles (sign-in) take
 * anyone and ignore a token.
 */
export async function authorizeOperator(deps: ServerDeps, method: AdminMethodDesc, authorization: string | null): Promise<OperatorCaller | null> {
  if (method.roles.length === 0) return null;
  const token = bearerToken(authorization);
  if (token === null) throw fail.unauthenticated("sign in first: no operator token");
  if (!token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 128) throw fail.unauthenticated("not an operator token: sign in through OperatorService.SignIn");
  const tokenHash = deps.hashSecret(token);
  const found = await deps.storage.transact(async (tx) => {
    const session = await tx.get(tables.operatorSessions, tokenHash);
    if (!session || session.expiresAt <= deps.clock.now()) return null;
    const operator = await tx.get(tables.operators, session.operatorId);
    return operator ?? null;
  }, { readOnly: true });
  if (!found) throw fail.unauthenticated("the operator token expired or was ended: sign in again");
  if (!(method.roles as readonly string[]).includes(found.role)) {
    throw fail.denied(`${method.name}: a ${found.role} may not call it (roles: ${method.roles.join(", ")})`);
  }
  return { operator: found, tokenHash };
}

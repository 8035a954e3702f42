import { fail, type Tx } from "@playfield/core";
import type { ServerDeps } from "../server-deps.js";
import { writeAudit, type AuditFacts } from "./audit-log.js";
import type { OperatorCaller } from "./operator-tokens.js";

/** What an admin method implementation receives besides its request. */
export interface AdminContext {
  deps: ServerDeps;
  /** The signed-in operator, or null on methods open to anyone (sign-in). */
  caller: OperatorCaller | null;
  /** The call's request id (the caller's `x-request-id` when well-formed, else a new one): in every audit entry. */
  requestId: string;
  clientAddress: string | null;
  /** How long a new operator token lasts, in seconds. */
  tokenSeconds: number;
  /** The signed-in operator; throws `unauthenticated` for anyone else. */
  operator(): OperatorCaller;
  /** Writes the audit entry of this call's action inside `tx`, the transaction of the change. */
  audit(tx: Tx, facts: AuditFacts): Promise<void>;
}

/** The context of one admin call. */
export function createAdminContext(deps: ServerDeps, caller: OperatorCaller | null, requestId: string, clientAddress: string | null, tokenSeconds: number): AdminContext {
  const operator = () => {
    if (!caller) throw fail.unauthenticated("sign in first: no operator token");
    return caller;
  };
  return {
    deps, caller, requestId, clientAddress, tokenSeconds, operator,
    async audit(tx, facts) {
      await writeAudit(tx, deps, { operator: operator().operator, requestId }, facts);
    },
  };
}

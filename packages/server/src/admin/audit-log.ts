import { isoTime, tables, type AuditRow, type OperatorRow, type Tx } from "@playfield/core";
import type { ServerDeps } from "../server-deps.js";

/*
 * The audit log: one row per admin action that changed something, written
 * in the transaction of the change itself, so an action and its entry commit
 * or fail together.
 */

/** What an action says about itself. */
export interface AuditFacts {
  action: string;
  target: string;
  before?: unknown;
  after?: unknown;
  reason?: string;
  /** The action's answer, kept for idempotent retries (`idempotencyKey`). */
  result?: unknown;
  idempotencyKey?: string;
}

/** Who did it and in which call. */
export interface AuditActor {
  operator: Pick<OperatorRow, "id" | "username">;
  requestId: string;
}

const asJson = (value: unknown) => (value === undefined ? "" : JSON.stringify(value));

/** Writes one audit entry inside `tx`. */
export async function writeAudit(tx: Tx, deps: Pick<ServerDeps, "ids" | "clock" | "sequence">, actor: AuditActor, facts: AuditFacts): Promise<AuditRow> {
  const row: AuditRow = {
    id: deps.ids.id("aud"),
    seq: deps.sequence.next(),
    at: deps.clock.now(),
    operatorId: actor.operator.id,
    operatorUsername: actor.operator.username,
    action: facts.action,
    target: facts.target,
    before: asJson(facts.before),
    after: asJson(facts.after),
    reason: facts.reason ?? "",
    requestId: actor.requestId,
    result: asJson(facts.result),
    idempotencyKey: facts.idempotencyKey ?? "",
  };
  await tx.put(tables.auditLog, row);
  return row;
}

/** An entry as the admin API shows it. */
export function auditView(row: AuditRow) {
  return {
    id: row.id, at: isoTime(row.at), operatorId: row.operatorId, operatorUsername: row.operatorUsername, action: row.action, target: row.target,
    before: row.before, after: row.after, reason: row.reason, requestId: row.requestId,
  };
}

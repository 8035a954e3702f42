import { defineTable } from "../port.js";

/* The admin API's tables: operators (not players), their sessions, and the audit log. */

/** An operator: an account of the admin API, apart from players. */
export interface OperatorRow {
  id: string;
  username: string;
  /** The username lowercased: unique. */
  usernameKey: string;
  role: "admin" | "moderator" | "support" | "viewer";
  /** Hashed as players' passwords are (the server's hasher). */
  passwordHash: string;
  createdAt: number;
}

export const operators = defineTable<OperatorRow>()({
  name: "operators",
  primaryKey: (row) => row.id,
  indexes: {
    byUsername: { key: (row) => [row.usernameKey], unique: true },
  },
});

/** An operator token, stored hashed: opaque, short-lived, ended by sign-out or the operator's removal. */
export interface OperatorSessionRow {
  hash: string;
  operatorId: string;
  createdAt: number;
  expiresAt: number;
}

export const operatorSessions = defineTable<OperatorSessionRow>()({
  name: "operator_sessions",
  primaryKey: (row) => row.hash,
  indexes: {
    byOperator: { key: (row) => [row.operatorId, row.createdAt] },
  },
});

/** One admin action: who, what, on what, before and after, when, and the call's request id. */
export interface AuditRow {
  id: string;
  /** Orders the log (the server's sequence): newest first is descending `seq`. */
  seq: number;
  at: number;
  operatorId: string;
  operatorUsername: string;
  action: string;
  target: string;
  /** JSON text, or "" when there is nothing to show. */
  before: string;
  after: string;
  reason: string;
  requestId: string;
  /** What the action answered, kept so that a retry with the same idempotency key answers it again (JSON). */
  result: string;
  /** `${action}:${key}` for idempotent actions, else "". */
  idempotencyKey: string;
}

export const auditLog = defineTable<AuditRow>()({
  name: "audit_log",
  primaryKey: (row) => row.id,
  indexes: {
    bySeq: { key: (row) => [row.seq] },
    byTarget: { key: (row) => [row.target, row.seq] },
    byIdempotencyKey: { key: (row) => (row.idempotencyKey ? [row.idempotencyKey] : null), unique: true },
  },
});

/*
 * Messages of the admin API (proto package svc.admin.v1). Every string is
 * bounded; every list a page of at most 100. Reasons are required on every
 * action that changes a player: they go to the audit log.
 */
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN, PASSWORD_RULE, USERNAME_PATTERN, USERNAME_RULE } from "../domain/account-rules.js";
import { bool, int32, int64, list, message, string, timestamp } from "../wire/fields.js";
import { OPERATOR_ROLES } from "./operator-role.js";
import { REPORT_OUTCOMES } from "../domain/report-rules.js";

/** Longest reason or note an operator may write. */
export const REASON_MAX = 500;
/** Most rows one page answers; 0 asks for the default, 50. */
export const ADMIN_PAGE_MAX = 100;
export const ADMIN_PAGE_DEFAULT = 50;
/** Largest credit adjustment in one call, either way. */
export const CREDIT_ADJUSTMENT_MAX = 1_000_000_000;

const required = (max: number) => string(z.string().min(1, { error: "required" }).max(max, { error: `at most ${max} characters` }));
const optional = (max: number) => string(z.string().max(max, { error: `at most ${max} characters` }));
const id = () => required(64);
const reason = () => string(z.string().trim().min(1, { error: "required: say why" }).max(REASON_MAX, { error: `at most ${REASON_MAX} characters` }));
const pageSize = () => int32(z.int32().min(0, { error: "must not be negative" }).max(ADMIN_PAGE_MAX, { error: `at most ${ADMIN_PAGE_MAX}` }));
const pageToken = () => optional(128);
const role = () => string(z.string().refine((v) => (OPERATOR_ROLES as readonly string[]).includes(v), { error: `one of ${OPERATOR_ROLES.join(", ")}` }));

// Operators

export const Operator = message("Operator", {
  id: string(),
  username: string(),
  role: string(),
  createdAt: timestamp(),
});

export const OperatorSignInRequest = message("OperatorSignInRequest", {
  username: required(200),
  password: string(z.string().min(1, { error: "required" }).max(PASSWORD_MAX, { error: PASSWORD_RULE })),
});
export const OperatorSession = message("OperatorSession", {
  /** The operator token: `Authorization: Bearer <token>` on the admin API only. */
  token: string(),
  expiresAt: timestamp(),
  operator: Operator,
});
export const OperatorSignOutRequest = message("OperatorSignOutRequest", {});
export const OperatorSignOutResponse = message("OperatorSignOutResponse", {});
export const GetOperatorMeRequest = message("GetOperatorMeRequest", {});
export const ListOperatorsRequest = message("ListOperatorsRequest", {});
export const ListOperatorsResponse = message("ListOperatorsResponse", { operators: list(Operator) });
export const AddOperatorRequest = message("AddOperatorRequest", {
  username: string(z.string().regex(USERNAME_PATTERN, { error: USERNAME_RULE })),
  password: string(z.string().min(PASSWORD_MIN, { error: PASSWORD_RULE }).max(PASSWORD_MAX, { error: PASSWORD_RULE })),
  role: role(),
});
export const RemoveOperatorRequest = message("RemoveOperatorRequest", { operatorId: id() });
export const RemoveOperatorResponse = message("RemoveOperatorResponse", {});

// Players

export const PlayerSummary = message("PlayerSummary", {
  id: string(),
  username: string(),
  displayName: string(),
  guest: bool(),
  banned: bool(),
  deleted: bool(),
  createdAt: timestamp(),
});

export const SearchPlayersRequest = message("SearchPlayersRequest", {
  /** A player id, or the start of a username or of a display-name word. */
  query: required(100),
  pageSize: pageSize(),
  pageToken: pageToken(),
});
export const SearchPlayersResponse = message("SearchPlayersResponse", { players: list(PlayerSummary), nextPageToken: string() });

export const PlayerAccount = message("PlayerAccount", {
  id: string(),
  username: string(),
  displayName: string(),
  guest: bool(),
  birthdate: string(),
  createdAt: timestamp(),
  deletedAt: timestamp(),
  banned: bool(),
  bannedAt: timestamp(),
  banReason: string(),
});

export const PlayerDevice = message("PlayerDevice", {
  id: string(),
  label: string(),
  createdAt: timestamp(),
  lastUsedAt: timestamp(),
  expiresAt: timestamp(),
  signedOut: bool(),
});

export const PlayerWallet = message("PlayerWallet", {
  purchased: int64(),
  earned: int64(),
  pending: int64(),
  total: int64(),
});

export const PlayerLedgerEntry = message("PlayerLedgerEntry", {
  id: string(),
  kind: string(),
  amount: int64(),
  memo: string(),
  createdAt: timestamp(),
  ref: string(),
});

export const PlayerGroup = message("PlayerGroup", { groupId: string(), name: string(), rank: int32() });
export const PlayerExperience = message("PlayerExperience", { id: string(), name: string(), visibility: string(), createdAt: timestamp() });

export const AdminReport = message("AdminReport", {
  id: string(),
  kind: string(),
  reporterId: string(),
  targetUserId: string(),
  experienceId: string(),
  category: string(),
  details: string(),
  status: string(),
  outcome: string(),
  /** The operator's note when it was closed. */
  note: string(),
  createdAt: timestamp(),
  resolvedAt: timestamp(),
});

export const GetPlayerRequest = message("GetPlayerRequest", {
  userId: id(),
  /** Ledger rows on this page, newest first. */
  ledgerPageSize: pageSize(),
  ledgerPageToken: pageToken(),
});
export const PlayerDetail = message("PlayerDetail", {
  player: PlayerAccount,
  devices: list(PlayerDevice),
  wallet: PlayerWallet,
  ledger: list(PlayerLedgerEntry),
  nextLedgerPageToken: string(),
  groups: list(PlayerGroup),
  experiences: list(PlayerExperience),
  /** The latest reports the player filed and those filed against them, newest first (at most 50 each). */
  reportsBy: list(AdminReport),
  reportsAgainst: list(AdminReport),
});

export const BanPlayerRequest = message("BanPlayerRequest", { userId: id(), reason: reason() });
export const UnbanPlayerRequest = message("UnbanPlayerRequest", { userId: id(), reason: reason() });
export const SignOutDeviceRequest = message("SignOutDeviceRequest", { userId: id(), deviceId: id(), reason: reason() });
export const SignOutDeviceResponse = message("SignOutDeviceResponse", {});

export const AdjustCreditsRequest = message("AdjustCreditsRequest", {
  userId: id(),
  /** Credits to grant (positive, into `purchased`) or remove (negative, from `purchased` then `earned`). */
  credits: int64(z.int().refine((v) => v !== 0 && Math.abs(v) <= CREDIT_ADJUSTMENT_MAX, { error: `a whole number from -${CREDIT_ADJUSTMENT_MAX} to ${CREDIT_ADJUSTMENT_MAX}, not 0` })),
  reason: reason(),
  /** The same key again answers the first call's result and changes nothing. */
  idempotencyKey: required(64),
});
export const AdjustCreditsResponse = message("AdjustCreditsResponse", { entryId: string(), wallet: PlayerWallet });

// Audit log

export const AuditEntry = message("AuditEntry", {
  id: string(),
  at: timestamp(),
  operatorId: string(),
  operatorUsername: string(),
  /** The method: `PlayerAdminService.BanPlayer`. */
  action: string(),
  /** What it acted on: `user:<id>`, `operator:<id>`, `device:<id>`. */
  target: string(),
  /** JSON of the target before and after, as far as the action changed it. */
  before: string(),
  after: string(),
  reason: string(),
  requestId: string(),
});
export const ListAuditLogRequest = message("ListAuditLogRequest", {
  pageSize: pageSize(),
  pageToken: pageToken(),
  /** Only entries about this target (`user:<id>`), when set. */
  target: optional(80),
});
export const ListAuditLogResponse = message("ListAuditLogResponse", { entries: list(AuditEntry), nextPageToken: string() });

// Moderation queue

export const ListReportsRequest = message("ListReportsRequest", {
  /** `open` (the default) or `resolved`. */
  status: string(z.string().refine((v) => v === "" || v === "open" || v === "resolved", { error: "open or resolved" })),
  pageSize: pageSize(),
  pageToken: pageToken(),
});
export const ListReportsResponse = message("ListReportsResponse", { reports: list(AdminReport), nextPageToken: string() });
export const ResolveReportRequest = message("ResolveReportRequest", {
  reportId: id(),
  /** What was decided: `no_action` dismisses the report. */
  outcome: string(z.string().refine((v) => (REPORT_OUTCOMES as readonly string[]).includes(v), { error: `one of ${REPORT_OUTCOMES.join(", ")}` })),
  note: reason(),
});

// Payouts

export const AdminPayout = message("AdminPayout", {
  id: string(),
  userId: string(),
  credits: int64(),
  amountUsd: string(),
  method: string(),
  status: string(),
  failureReason: string(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export const ListPayoutsRequest = message("ListPayoutsRequest", {
  /** `requested` (the default: waiting for a decision), `processing`, `paid`, `failed` or `reversed`. */
  status: string(z.string().refine((v) => v === "" || ["requested", "processing", "paid", "failed", "reversed"].includes(v), { error: "requested, processing, paid, failed or reversed" })),
  pageSize: pageSize(),
  pageToken: pageToken(),
});
export const ListPayoutsResponse = message("ListPayoutsResponse", { payouts: list(AdminPayout), nextPageToken: string() });
export const ApprovePayoutRequest = message("ApprovePayoutRequest", { payoutId: id(), note: optional(REASON_MAX) });
export const RejectPayoutRequest = message("RejectPayoutRequest", { payoutId: id(), reason: reason() });

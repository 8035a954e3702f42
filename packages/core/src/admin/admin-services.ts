import { addMessage, type ShapeTable } from "../wire/wire-shape.js";
import * as s from "./admin-schemas.js";
import { defineAdminService, type AdminMethodDesc, type AdminServiceDesc } from "./define-admin-service.js";
import type { OperatorRole } from "./operator-role.js";

const EVERY_ROLE: readonly OperatorRole[] = ["admin", "moderator", "support", "viewer"];
const ADMIN: readonly OperatorRole[] = ["admin"];
/** Who acts on players' accounts: bans are moderation, sign-outs both. */
const MODERATION: readonly OperatorRole[] = ["admin", "moderator"];
const ACCOUNT_CARE: readonly OperatorRole[] = ["admin", "moderator", "support"];
const WALLETS: readonly OperatorRole[] = ["admin", "support"];

export const OperatorService = defineAdminService({
  typeName: "svc.admin.v1.OperatorService",
  localName: "operators",
  summary: "Operators' sign-in and accounts: apart from players, with roles.",
  methods: {
    signIn: { input: s.OperatorSignInRequest, output: s.OperatorSession, roles: [], audited: true, summary: "Signs an operator in: a short-lived operator token. Throttled like players' sign-ins." },
    signOut: { input: s.OperatorSignOutRequest, output: s.OperatorSignOutResponse, roles: EVERY_ROLE, audited: true, summary: "Ends the caller's operator token." },
    getMe: { input: s.GetOperatorMeRequest, output: s.Operator, roles: EVERY_ROLE, audited: false, summary: "The signed-in operator." },
    listOperators: { input: s.ListOperatorsRequest, output: s.ListOperatorsResponse, roles: ADMIN, audited: false, summary: "Every operator, by username." },
    addOperator: { input: s.AddOperatorRequest, output: s.Operator, roles: ADMIN, audited: true, summary: "Adds an operator with a role and a password." },
    removeOperator: { input: s.RemoveOperatorRequest, output: s.RemoveOperatorResponse, roles: ADMIN, audited: true, summary: "Removes an operator and ends their tokens; the last admin cannot be removed." },
  },
});

export const PlayerAdminService = defineAdminService({
  typeName: "svc.admin.v1.PlayerAdminService",
  localName: "players",
  summary: "Players' accounts, devices and wallets, as support and moderation see them.",
  methods: {
    searchPlayers: { input: s.SearchPlayersRequest, output: s.SearchPlayersResponse, roles: EVERY_ROLE, audited: false, summary: "Players by id, username prefix or display-name word, guests and banned ones included; paged." },
    getPlayer: { input: s.GetPlayerRequest, output: s.PlayerDetail, roles: EVERY_ROLE, audited: false, summary: "A player's profile, devices, wallet with a ledger page, groups, experiences and reports by and against them." },
    banPlayer: { input: s.BanPlayerRequest, output: s.PlayerAccount, roles: MODERATION, audited: true, summary: "Bans a player with a reason: signs them out everywhere and refuses their sign-ins until unbanned." },
    unbanPlayer: { input: s.UnbanPlayerRequest, output: s.PlayerAccount, roles: MODERATION, audited: true, summary: "Lifts a player's ban." },
    signOutDevice: { input: s.SignOutDeviceRequest, output: s.SignOutDeviceResponse, roles: ACCOUNT_CARE, audited: true, summary: "Ends one device session of a player: its tokens stop working at once." },
    adjustCredits: { input: s.AdjustCreditsRequest, output: s.AdjustCreditsResponse, roles: WALLETS, audited: true, summary: "Grants or removes credits with a reason: a ledger entry, idempotent on its key." },
  },
});

export const AuditService = defineAdminService({
  typeName: "svc.admin.v1.AuditService",
  localName: "audit",
  summary: "The audit log: every admin action, who, what, on what, before and after, when and its request id.",
  methods: {
    listAuditLog: { input: s.ListAuditLogRequest, output: s.ListAuditLogResponse, roles: ["admin", "moderator"], audited: false, summary: "Audit entries, newest first; paged, optionally about one target." },
  },
});

export const ModerationService = defineAdminService({
  typeName: "svc.admin.v1.ModerationService",
  localName: "moderation",
  summary: "The moderation queue: reports of players and experiences.",
  methods: {
    listReports: { input: s.ListReportsRequest, output: s.ListReportsResponse, roles: EVERY_ROLE, audited: false, summary: "Reports by status, oldest first (the queue's order); paged." },
    resolveReport: { input: s.ResolveReportRequest, output: s.AdminReport, roles: MODERATION, audited: true, summary: "Closes a report with an outcome and a note (`no_action` dismisses it); acting on the subject is a call of its own (BanPlayer)." },
  },
});

export const PayoutAdminService = defineAdminService({
  typeName: "svc.admin.v1.PayoutAdminService",
  localName: "payouts",
  summary: "Creators' payout requests: the queue, approval and rejection.",
  methods: {
    listPayouts: { input: s.ListPayoutsRequest, output: s.ListPayoutsResponse, roles: EVERY_ROLE, audited: false, summary: "Payouts by status, oldest first (default: requested, waiting for a decision); paged." },
    approvePayout: { input: s.ApprovePayoutRequest, output: s.AdminPayout, roles: WALLETS, audited: true, summary: "Approves a requested payout: it becomes processing." },
    rejectPayout: { input: s.RejectPayoutRequest, output: s.AdminPayout, roles: WALLETS, audited: true, summary: "Rejects a requested or processing payout with a reason: it fails and its credits return to earned." },
  },
});

/** The whole admin API, in the order of the docs. */
export const adminServices = {
  operators: OperatorService,
  players: PlayerAdminService,
  moderation: ModerationService,
  payouts: PayoutAdminService,
  audit: AuditService,
} as const;
export type AdminServices = typeof adminServices;

/** The proto package of the admin API. */
export const ADMIN_API_PACKAGE = "svc.admin.v1";

/** Every admin method, in order. */
export function allAdminMethods(): AdminMethodDesc[] {
  return Object.values(adminServices).flatMap((service: AdminServiceDesc) => Object.values(service.methods) as AdminMethodDesc[]);
}

/** The wire shape of every message the admin API uses, by name. */
export function adminShapeTable(): ShapeTable {
  const table: ShapeTable = {};
  for (const method of allAdminMethods()) {
    addMessage(method.input, table);
    addMessage(method.output, table);
  }
  return table;
}

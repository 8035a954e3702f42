import {
  ADMIN_PAGE_DEFAULT, fail, isoTime, normalizeQuery, planSpend, tables, usernameKey,
  type PlayerAdminService, type ReportRow, type Tx, type UserRow, type WalletRow,
} from "@playfield/core";
import { revokeAllDevices, revokeDevice, saveUser } from "../../services/identity/accounts.js";
import { emptyWallet, post, settledWallet, walletView } from "../../services/economy/ledger.js";
import { searchUsers } from "../../services/social/user-search.js";
import type { AdminServiceImpl } from "../admin-router.js";
import type { AdminContext } from "../admin-context.js";

const time = (ms: number | null | undefined) => (ms === null || ms === undefined ? "" : isoTime(ms));

/** Deepest a search may page: past it, a narrower query serves better than a page number. */
const SEARCH_OFFSET_MAX = 10_000;
/** Display-name matches a search considers (the name index answers the best first). */
const NAME_MATCHES_MAX = 100;
/** Rows of each list on a player's page besides the ledger (devices, groups, experiences, reports). */
const PLAYER_LIST_MAX = 50;

const summaryOf = (user: UserRow) => ({
  id: user.id, username: user.username, displayName: user.displayName, guest: user.guest, banned: Boolean(user.ban), deleted: user.deletedAt !== null,
  createdAt: isoTime(user.createdAt),
});

/** A player's account as an operator sees it (never the password hash). */
export const accountOf = (user: UserRow) => ({
  id: user.id, username: user.username, displayName: user.displayName, guest: user.guest, birthdate: user.birthdate ?? "",
  createdAt: isoTime(user.createdAt), deletedAt: time(user.deletedAt), banned: Boolean(user.ban), bannedAt: time(user.ban?.at), banReason: user.ban?.reason ?? "",
});

/** A report as operators see it. */
export const reportOf = (row: ReportRow) => ({
  id: row.id, kind: row.kind, reporterId: row.reporterId, targetUserId: row.targetUserId, experienceId: row.experienceId, category: row.category,
  details: row.details, status: row.status, outcome: row.outcome, note: row.note ?? "", createdAt: isoTime(row.createdAt), resolvedAt: time(row.resolvedAt),
});

/** A page token that is a row offset or a sequence number: decimal digits, or "" for the first page. */
function tokenNumber(token: string, field: string, max = Number.MAX_SAFE_INTEGER): number | null {
  if (token === "") return null;
  if (!/^\d{1,16}$/.test(token) || Number(token) > max) throw fail.invalid(`${field}: not a page token this method gave`);
  return Number(token);
}

async function requirePlayer(tx: Tx, userId: string): Promise<UserRow> {
  const user = await tx.get(tables.users, userId);
  if (!user) throw fail.notFound("userId: no such player");
  return user;
}

/** Players whose id is `query`, whose username starts with it, then whose display name has a word starting with it. */
async function searchPlayers(tx: Tx, query: string, upTo: number): Promise<UserRow[]> {
  const key = usernameKey(query.trim());
  const [byId, byUsername] = await Promise.all([
    tx.get(tables.users, query.trim()),
    key === "" ? [] : tx.query(tables.users, "byUsername", { range: { gte: key, lt: `${key}\uffff` }, limit: upTo }),
  ]);
  const found = new Map<string, UserRow>();
  if (byId) found.set(byId.id, byId);
  for (const user of byUsername) found.set(user.id, user);
  const normalized = normalizeQuery(query);
  if (found.size < upTo && normalized !== "") {
    // The public search's name index: accounts only (guests are found by id or username).
    for (const user of await searchUsers(tx, normalized, NAME_MATCHES_MAX, null)) found.set(user.id, user);
  }
  return [...found.values()];
}

/** Ends a player's every session at once: their devices, refresh tokens and, at their next check, realtime connections. */
async function signOutEverywhere(tx: Tx, ctx: AdminContext, userId: string): Promise<void> {
  await revokeAllDevices(tx, userId, ctx.deps.clock.now());
}

/** PlayerAdminService: players as support and moderation see them. */
export const playerMethods: AdminServiceImpl<typeof PlayerAdminService> = {
  async searchPlayers(req, ctx) {
    const size = req.pageSize || ADMIN_PAGE_DEFAULT;
    const offset = tokenNumber(req.pageToken, "pageToken", SEARCH_OFFSET_MAX) ?? 0;
    const users = await ctx.deps.storage.transact((tx) => searchPlayers(tx, req.query, offset + size + 1));
    const page = users.slice(offset, offset + size);
    return { players: page.map(summaryOf), nextPageToken: users.length > offset + size && offset + size <= SEARCH_OFFSET_MAX ? String(offset + size) : "" };
  },

  async getPlayer(req, ctx) {
    const size = req.ledgerPageSize || ADMIN_PAGE_DEFAULT;
    const before = tokenNumber(req.ledgerPageToken, "ledgerPageToken");
    return ctx.deps.storage.transact(async (tx) => {
      const user = await requirePlayer(tx, req.userId);
      const [devices, wallet, ledger, memberships, experiences, reportsBy, reportsAgainst] = await Promise.all([
        tx.query(tables.devices, "byUser", { equals: [user.id], order: "desc", limit: PLAYER_LIST_MAX }),
        tx.get(tables.wallets, user.id),
        tx.query(tables.ledger, "byUser", { equals: [user.id], order: "desc", limit: size + 1, ...(before === null ? {} : { range: { lt: before } }) }),
        tx.query(tables.groupMembers, "byUser", { equals: [user.id], order: "desc", limit: PLAYER_LIST_MAX }),
        tx.query(tables.experiences, "byCreator", { equals: [user.id], order: "desc", limit: PLAYER_LIST_MAX }),
        tx.query(tables.reports, "byReporter", { equals: [user.id], order: "desc", limit: PLAYER_LIST_MAX }),
        tx.query(tables.reports, "byTarget", { equals: [user.id], order: "desc", limit: PLAYER_LIST_MAX }),
      ]);
      const groups = await tx.getMany(tables.groups, memberships.map((m) => m.groupId));
      const now = ctx.deps.clock.now();
      const page = ledger.slice(0, size);
      return {
        player: accountOf(user),
        devices: devices.map((d) => ({
          id: d.id, label: d.label, createdAt: isoTime(d.createdAt), lastUsedAt: isoTime(d.lastUsedAt), expiresAt: isoTime(d.expiresAt),
          signedOut: d.revokedAt !== null || d.expiresAt <= now,
        })),
        wallet: walletView(wallet ?? emptyWallet(user.id)),
        ledger: page.map((row) => ({ id: row.id, kind: row.kind, amount: row.amount, memo: row.memo, createdAt: isoTime(row.createdAt), ref: row.ref })),
        nextLedgerPageToken: ledger.length > size ? String(page[page.length - 1]!.seq) : "",
        groups: memberships.flatMap((m, i) => (groups[i] ? [{ groupId: m.groupId, name: groups[i]!.name, rank: m.rank }] : [])),
        experiences: experiences.map((e) => ({ id: e.id, name: e.title, visibility: e.visibility, createdAt: isoTime(e.createdAt) })),
        reportsBy: reportsBy.map(reportOf),
        reportsAgainst: reportsAgainst.map(reportOf),
      };
    });
  },

  async banPlayer(req, ctx) {
    const { operator } = ctx.operator();
    return ctx.deps.storage.transact(async (tx) => {
      const user = await requirePlayer(tx, req.userId);
      if (user.deletedAt !== null) throw fail.precondition("userId: the account was deleted");
      // Banning a banned player again keeps the first ban's time and records the new reason.
      const banned: UserRow = { ...user, ban: { at: user.ban?.at ?? ctx.deps.clock.now(), reason: req.reason, operatorId: operator.id } };
      await saveUser(tx, banned);
      await signOutEverywhere(tx, ctx, user.id);
      await ctx.audit(tx, { action: "PlayerAdminService.BanPlayer", target: `user:${user.id}`, before: accountOf(user), after: accountOf(banned), reason: req.reason });
      return accountOf(banned);
    });
  },

  async unbanPlayer(req, ctx) {
    return ctx.deps.storage.transact(async (tx) => {
      const user = await requirePlayer(tx, req.userId);
      if (!user.ban) return accountOf(user);
      const unbanned: UserRow = { ...user, ban: null };
      await saveUser(tx, unbanned);
      await ctx.audit(tx, { action: "PlayerAdminService.UnbanPlayer", target: `user:${user.id}`, before: accountOf(user), after: accountOf(unbanned), reason: req.reason });
      return accountOf(unbanned);
    });
  },

  async signOutDevice(req, ctx) {
    await ctx.deps.storage.transact(async (tx) => {
      const device = await tx.get(tables.devices, req.deviceId);
      if (!device || device.userId !== req.userId) throw fail.notFound("deviceId: no such device of this player");
      if (device.revokedAt !== null) return;
      await revokeDevice(tx, device, ctx.deps.clock.now());
      await ctx.audit(tx, {
        action: "PlayerAdminService.SignOutDevice", target: `device:${device.id}`, reason: req.reason,
        before: { userId: device.userId, label: device.label, signedOut: false }, after: { userId: device.userId, label: device.label, signedOut: true },
      });
    });
    return {};
  },

  async adjustCredits(req, ctx) {
    const action = "PlayerAdminService.AdjustCredits";
    const key = `${action}:${req.idempotencyKey}`;
    return ctx.deps.storage.transact(async (tx) => {
      const [done] = await tx.query(tables.auditLog, "byIdempotencyKey", { equals: [key], limit: 1 });
      if (done) {
        // The same key for another player or amount is a mistake, not a retry.
        const first = JSON.parse(done.before) as { userId: string; credits: number };
        if (first.userId !== req.userId || first.credits !== req.credits) throw fail.precondition("idempotencyKey: already used for another adjustment");
        return JSON.parse(done.result) as { entryId: string; wallet: ReturnType<typeof walletView> };
      }
      const user = await requirePlayer(tx, req.userId);
      if (user.deletedAt !== null) throw fail.precondition("userId: the account was deleted");
      const now = ctx.deps.clock.now();
      const wallet: WalletRow = await settledWallet(tx, user.id, now);
      let deltas: { purchased: number; earned: number };
      if (req.credits > 0) deltas = { purchased: req.credits, earned: 0 };
      else {
        const plan = planSpend(wallet, -req.credits);
        if (!plan) throw fail.precondition(`credits: the player has ${wallet.purchased + wallet.earned} spendable credits, fewer than ${-req.credits}`);
        deltas = { purchased: -plan.fromPurchased, earned: -plan.fromEarned };
      }
      const { row, wallet: after } = await post(tx, ctx.deps, {
        userId: user.id, kind: "grant", amount: req.credits, ...deltas, memo: req.reason, ref: `audit:${ctx.requestId}`,
      }, wallet);
      const result = { entryId: row.id, wallet: walletView(after) };
      await ctx.audit(tx, {
        action, target: `user:${user.id}`, reason: req.reason, idempotencyKey: key, result,
        before: { userId: user.id, credits: req.credits, wallet: walletView(wallet) }, after: { wallet: walletView(after), entryId: row.id },
      });
      return result;
    });
  },
};

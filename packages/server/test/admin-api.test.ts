import { Code, RealtimeCloseCode, allAdminMethods, s256Challenge, tables } from "@playfield/core";
import { startServer } from "@playfield/server-memory";
import { readySocket } from "./realtime-sockets.js";
import { createMemoryTokenStore } from "@playfield/client";
import { bootstrapOperators, createAdminApi, OPERATOR_TOKEN_PREFIX } from "@playfield/server";
import { createAdminClient } from "@playfield/client";
import { describe, expect, it } from "vitest";
import { expectError } from "./fixtures.js";
import { ADMIN_PASSWORD, ADMIN_URL, adminWorld } from "./admin-fixtures.js";

/*
 * The admin API end to end, in process (the handler the admin listener
 * mounts), on the run's storage: memory, PGlite or PostgreSQL.
 */

describe("operators", () => {
  it("should sign in admin with PLAYFIELD_ADMIN_PASSWORD, refuse a wrong password, and sign out", async () => {
    await using w = await adminWorld();
    expect(await w.admin.operators.getMe()).toMatchObject({ username: "admin", role: "admin" });
    expect(w.admin.token.get()).toMatch(new RegExp(`^${OPERATOR_TOKEN_PREFIX}`));
    await expectError(w.client().operators.signIn({ username: "admin", password: "wrong password" }), Code.Unauthenticated, /username or password is wrong/);
    await expectError(w.client().operators.signIn({ username: "nobody", password: "wrong password" }), Code.Unauthenticated, /username or password is wrong/);
    const token = w.admin.token.get()!;
    await w.admin.operators.signOut();
    await expectError(w.admin.operators.getMe({}, { token }), Code.Unauthenticated);
  });

  it("should keep player and operator tokens apart: neither API takes the other's", async () => {
    await using w = await adminWorld();
    const player = await w.t.server.seed.user();
    await expectError(w.client().players.searchPlayers({ query: "a" }, { token: player.accessToken }), Code.Unauthenticated, /not an operator token/);
    const platform = w.t.client({ tokenStore: createMemoryTokenStore({ accessToken: w.admin.token.get()!, refreshToken: "", expiresAt: 0 }) });
    await expectError(platform.identity.getMe(), Code.Unauthenticated);
  });

  it("should check roles from the descriptors: a viewer reads, support adjusts credits, only a moderator or admin bans", async () => {
    await using w = await adminWorld();
    const player = await w.t.server.seed.user();
    const viewer = await w.operator("viewer");
    const support = await w.operator("support");
    const moderator = await w.operator("moderator");
    expect((await viewer.players.getPlayer({ userId: player.userId })).player.id).toBe(player.userId);
    await expectError(viewer.players.banPlayer({ userId: player.userId, reason: "spam" }), Code.PermissionDenied, /a viewer may not call it/);
    await expectError(support.players.banPlayer({ userId: player.userId, reason: "spam" }), Code.PermissionDenied);
    await expectError(moderator.operators.listOperators(), Code.PermissionDenied);
    await expectError(moderator.players.adjustCredits({ userId: player.userId, credits: 5, reason: "r", idempotencyKey: "k" }), Code.PermissionDenied);
    await support.players.adjustCredits({ userId: player.userId, credits: 5, reason: "goodwill", idempotencyKey: "k1" });
    expect((await moderator.players.banPlayer({ userId: player.userId, reason: "spam" })).banned).toBe(true);
  });

  it("should add, list and remove operators; a removed operator's token ends; the last admin stays", async () => {
    await using w = await adminWorld();
    const added = await w.admin.operators.addOperator({ username: "helper", password: "helper pw 12", role: "support" });
    await expectError(w.admin.operators.addOperator({ username: "Helper", password: "helper pw 12", role: "support" }), Code.AlreadyExists);
    await expectError(w.admin.operators.addOperator({ username: "x", password: "helper pw 12", role: "boss" }), Code.InvalidArgument, /username/);
    expect((await w.admin.operators.listOperators()).operators.map((o) => o.username)).toEqual(["admin", "helper"]);
    const helper = w.client();
    await helper.operators.signIn({ username: "helper", password: "helper pw 12" });
    await w.admin.operators.removeOperator({ operatorId: added.id });
    await expectError(helper.operators.getMe(), Code.Unauthenticated);
    const me = await w.admin.operators.getMe();
    await expectError(w.admin.operators.removeOperator({ operatorId: me.id }), Code.FailedPrecondition, /last admin/);
  });

  it("should generate admin's password once for a new storage without PLAYFIELD_ADMIN_PASSWORD", async () => {
    await using w = await adminWorld();
    const { deps } = w.t.server;
    await deps.storage.transact(async (tx) => {
      for (const op of await tx.query(tables.operators, "byUsername")) await tx.delete(tables.operators, op.id);
    });
    const first = await bootstrapOperators(deps);
    expect(first?.generatedPassword).toMatch(/^.{20,}$/);
    expect(await bootstrapOperators(deps)).toBeNull();
    await w.client().operators.signIn({ username: "admin", password: first!.generatedPassword! });
    // The variable, given later, sets the password again.
    await bootstrapOperators(deps, ADMIN_PASSWORD);
    await w.client().operators.signIn({ username: "admin", password: ADMIN_PASSWORD });
  });
});

describe("role matrix", () => {
  it("should let exactly the roles a method's descriptor lists past the role check, for every admin method", async () => {
    await using w = await adminWorld();
    const roles = ["admin", "moderator", "support", "viewer"] as const;
    const callers = Object.fromEntries(await Promise.all(roles.map(async (role) => [role, (await w.operator(role)).token.get()!] as const)));
    for (const method of allAdminMethods()) {
      for (const role of roles) {
        const response = (await w.api(new Request(`${ADMIN_URL}${method.path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${callers[role]}` }, body: "{}" })))!;
        const { code } = response.status === 200 ? { code: "ok" } : (await response.json()) as { code: string };
        const listed = method.roles.length === 0 || method.roles.includes(role);
        // Sign-out would end the token the next method needs: a listed role's answer is all this checks.
        if (method.name === "SignOut") callers[role] = (await w.operator(role)).token.get()!;
        expect(code === "permission_denied" || code === "unauthenticated", `${method.path} as ${role}: ${code}`).toBe(!listed);
      }
    }
  });
});

describe("players", () => {
  it("should find players by id, username prefix and display name, paged", async () => {
    await using w = await adminWorld();
    const ada = await w.t.server.seed.user({ username: "ada_l", displayName: "Countess Lovelace" });
    for (const n of [1, 2, 3]) await w.t.server.seed.user({ username: `adam${n}` });
    expect((await w.admin.players.searchPlayers({ query: ada.userId })).players[0]!.id).toBe(ada.userId);
    expect((await w.admin.players.searchPlayers({ query: "countess" })).players.map((p) => p.id)).toEqual([ada.userId]);
    const first = await w.admin.players.searchPlayers({ query: "ADA", pageSize: 3 });
    expect(first.players.map((p) => p.username)).toEqual(["ada_l", "adam1", "adam2"]);
    const second = await w.admin.players.searchPlayers({ query: "ada", pageSize: 3, pageToken: first.nextPageToken });
    expect(second.players.map((p) => p.username)).toEqual(["adam3"]);
    expect(second.nextPageToken).toBe("");
    await expectError(w.admin.players.searchPlayers({ query: "ada", pageToken: "x" }), Code.InvalidArgument, /pageToken/);
  });

  it("should show a player's page: devices, wallet and ledger page, reports against them", async () => {
    await using w = await adminWorld();
    const player = await w.t.server.seed.user();
    const reporter = await w.t.server.seed.user();
    const reporterClient = w.t.client({ tokenStore: createMemoryTokenStore({ accessToken: reporter.accessToken, refreshToken: "", expiresAt: 0 }) });
    await reporterClient.safety.reportPlayer({ userId: player.userId, category: "scam", details: "asked for my password" });
    for (const key of ["a", "b", "c"]) await w.admin.players.adjustCredits({ userId: player.userId, credits: 10, reason: `grant ${key}`, idempotencyKey: key });
    const page = await w.admin.players.getPlayer({ userId: player.userId, ledgerPageSize: 2 });
    expect(page.devices.map((d) => d.id)).toEqual([player.deviceId]);
    expect(page.wallet).toMatchObject({ purchased: 30, total: 30 });
    expect(page.ledger.map((e) => e.memo)).toEqual(["grant c", "grant b"]);
    const next = await w.admin.players.getPlayer({ userId: player.userId, ledgerPageSize: 2, ledgerPageToken: page.nextLedgerPageToken });
    expect(next.ledger.map((e) => e.memo)).toEqual(["grant a"]);
    expect(page.reportsAgainst).toMatchObject([{ reporterId: reporter.userId, category: "scam" }]);
    expect((await w.admin.players.getPlayer({ userId: reporter.userId })).reportsBy).toHaveLength(1);
    await expectError(w.admin.players.getPlayer({ userId: "usr_nobody" }), Code.NotFound);
  });

  it("should ban with a reason: every session ends, sign-in refused until unbanned; all audited with the request id", async () => {
    await using w = await adminWorld();
    const player = await w.t.server.seed.user({ password: "player pw 123" });
    const client = w.t.client({ tokenStore: createMemoryTokenStore({ accessToken: player.accessToken, refreshToken: player.refreshToken, expiresAt: Date.now() + 600_000 }) });
    await client.identity.getMe();
    const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    const origin = "http://localhost:5173";
    const handoff = await client.identity.createHandoff({ targetOrigin: origin, codeChallenge: s256Challenge(verifier) });
    await w.admin.players.banPlayer({ userId: player.userId, reason: "cheating" }, { headers: { "x-request-id": "req-ban-1" } });
    await expectError(w.t.client().identity.redeemHandoff({ code: handoff.code, codeVerifier: verifier }, { headers: { origin } }), Code.PermissionDenied, /banned/);
    await expectError(client.identity.getMe(), Code.Unauthenticated);
    await expectError(w.t.client().identity.refresh({ refreshToken: player.refreshToken }), Code.Unauthenticated);
    await expectError(w.t.client().identity.signIn({ username: player.username, password: "player pw 123" }), Code.PermissionDenied, /banned/);
    await w.admin.players.unbanPlayer({ userId: player.userId, reason: "appeal accepted" });
    await w.t.client().identity.signIn({ username: player.username, password: "player pw 123" });
    const { entries } = await w.admin.audit.listAuditLog({ target: `user:${player.userId}` });
    expect(entries.map((e) => [e.action, e.reason])).toEqual([["PlayerAdminService.UnbanPlayer", "appeal accepted"], ["PlayerAdminService.BanPlayer", "cheating"]]);
    expect(entries[1]).toMatchObject({ operatorUsername: "admin", requestId: "req-ban-1" });
    expect(JSON.parse(entries[1]!.before)).toMatchObject({ banned: false });
    expect(JSON.parse(entries[1]!.after)).toMatchObject({ banned: true, banReason: "cheating" });
  });

  it("should close a banned player's realtime connections at their next check", async () => {
    // The sockets' check runs with every ping: 50 ms here, 30 s by default.
    const server = await startServer({ port: 0, websocket: { pingIntervalMs: 50 } });
    try {
      await bootstrapOperators(server.deps, ADMIN_PASSWORD);
      const api = createAdminApi({ deps: server.deps });
      const admin = createAdminClient({ baseUrl: ADMIN_URL, fetch: async (input, init) => (await api(new Request(input, init)))! });
      await admin.operators.signIn({ username: "admin", password: ADMIN_PASSWORD });
      const player = await server.seed.user();
      const socket = await readySocket(server.url, player.accessToken);
      await admin.players.banPlayer({ userId: player.userId, reason: "cheating" });
      expect(await socket.closed).toMatchObject({ code: RealtimeCloseCode.Unauthenticated, reason: expect.stringMatching(/signed out/) });
    } finally {
      await server.close();
    }
  });

  it("should sign out one device, and refuse a device of another player", async () => {
    await using w = await adminWorld();
    const player = await w.t.server.seed.user();
    const other = await w.t.server.seed.user();
    await expectError(w.admin.players.signOutDevice({ userId: other.userId, deviceId: player.deviceId, reason: "lost phone" }), Code.NotFound);
    await w.admin.players.signOutDevice({ userId: player.userId, deviceId: player.deviceId, reason: "lost phone" });
    const client = w.t.client({ tokenStore: createMemoryTokenStore({ accessToken: player.accessToken, refreshToken: "", expiresAt: 0 }) });
    await expectError(client.identity.getMe(), Code.Unauthenticated, /signed out/);
  });

  it("should grant and remove credits once per idempotency key, never below zero", async () => {
    await using w = await adminWorld();
    const player = await w.t.server.seed.user();
    const first = await w.admin.players.adjustCredits({ userId: player.userId, credits: 100, reason: "refund of a bug", idempotencyKey: "ticket-1" });
    const again = await w.admin.players.adjustCredits({ userId: player.userId, credits: 100, reason: "refund of a bug", idempotencyKey: "ticket-1" });
    expect(again).toEqual(first);
    expect(first.wallet.total).toBe(100);
    await expectError(w.admin.players.adjustCredits({ userId: player.userId, credits: 5, reason: "x", idempotencyKey: "ticket-1" }), Code.FailedPrecondition, /idempotencyKey/);
    await expectError(w.admin.players.adjustCredits({ userId: player.userId, credits: -101, reason: "abuse", idempotencyKey: "ticket-2" }), Code.FailedPrecondition, /spendable/);
    const removed = await w.admin.players.adjustCredits({ userId: player.userId, credits: -40, reason: "abuse", idempotencyKey: "ticket-3" });
    expect(removed.wallet.total).toBe(60);
    const platform = w.t.client({ tokenStore: createMemoryTokenStore({ accessToken: player.accessToken, refreshToken: "", expiresAt: 0 }) });
    expect((await platform.economy.getWallet()).total).toBe(60);
    await expectError(w.admin.players.adjustCredits({ userId: player.userId, credits: 0, reason: "x", idempotencyKey: "k" }), Code.InvalidArgument, /credits/);
  });
});

describe("moderation queue", () => {
  it("should page open reports oldest first, resolve one with a note (audited), and refuse a viewer or a second resolve", async () => {
    await using w = await adminWorld();
    const target = await w.t.server.seed.user();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      const reporter = await w.t.server.seed.user();
      const client = w.t.client({ tokenStore: createMemoryTokenStore({ accessToken: reporter.accessToken, refreshToken: "", expiresAt: 0 }) });
      ids.push((await client.safety.reportPlayer({ userId: target.userId, category: "harassment", details: `report ${n}` })).reportId);
      w.t.server.clock.advance(1000);
    }
    const first = await w.admin.moderation.listReports({ pageSize: 2 });
    expect(first.reports.map((r) => r.id)).toEqual(ids.slice(0, 2));
    const second = await w.admin.moderation.listReports({ pageSize: 2, pageToken: first.nextPageToken });
    expect(second.reports.map((r) => r.id)).toEqual([ids[2]]);
    const viewer = await w.operator("viewer");
    await expectError(viewer.moderation.resolveReport({ reportId: ids[0]!, outcome: "no_action", note: "fine" }), Code.PermissionDenied);
    const resolved = await w.admin.moderation.resolveReport({ reportId: ids[0]!, outcome: "warned", note: "first warning" });
    expect(resolved).toMatchObject({ status: "resolved", outcome: "warned", note: "first warning" });
    await expectError(w.admin.moderation.resolveReport({ reportId: ids[0]!, outcome: "no_action", note: "again" }), Code.FailedPrecondition, /already resolved/);
    await expectError(w.admin.moderation.resolveReport({ reportId: ids[1]!, outcome: "jailed", note: "x" }), Code.InvalidArgument, /outcome: one of/);
    expect((await w.admin.moderation.listReports({ status: "resolved" })).reports.map((r) => r.id)).toEqual([ids[0]]);
    const [entry] = (await w.admin.audit.listAuditLog({ target: `report:${ids[0]}` })).entries;
    expect(entry).toMatchObject({ action: "ModerationService.ResolveReport", reason: "first warning" });
  });
});

describe("payouts", () => {
  it("should list requested payouts, approve one and reject another with its credits returned, audited", async () => {
    await using w = await adminWorld();
    const maker = await w.t.server.seed.user();
    await w.t.server.deps.storage.transact((tx) => tx.put(tables.wallets, { userId: maker.userId, purchased: 0, earned: 3000, pending: 0, nextReleaseAt: null, updatedAt: 0 }));
    const client = w.t.client({ tokenStore: createMemoryTokenStore({ accessToken: maker.accessToken, refreshToken: "", expiresAt: 0 }) });
    const a = await client.creator.requestPayout({ credits: 1000 });
    const b = await client.creator.requestPayout({ credits: 1000 });
    const first = await w.admin.payouts.listPayouts({ pageSize: 1 });
    expect(first.payouts).toMatchObject([{ id: a.id, userId: maker.userId, credits: 1000, status: "requested" }]);
    expect((await w.admin.payouts.listPayouts({ pageSize: 1, pageToken: first.nextPageToken })).payouts.map((p) => p.id)).toEqual([b.id]);
    const viewer = await w.operator("viewer");
    await expectError(viewer.payouts.approvePayout({ payoutId: a.id }), Code.PermissionDenied);
    expect(await w.admin.payouts.approvePayout({ payoutId: a.id })).toMatchObject({ status: "processing" });
    await expectError(w.admin.payouts.approvePayout({ payoutId: a.id }), Code.FailedPrecondition, /processing payout cannot be approved/);
    expect(await w.admin.payouts.rejectPayout({ payoutId: b.id, reason: "account under review" })).toMatchObject({ status: "failed", failureReason: "account under review" });
    expect((await client.economy.getWallet()).earned).toBe(2000);
    await expectError(w.admin.payouts.rejectPayout({ payoutId: b.id, reason: "again" }), Code.FailedPrecondition);
    const { entries } = await w.admin.audit.listAuditLog({ target: `payout:${b.id}` });
    expect(entries).toMatchObject([{ action: "PayoutAdminService.RejectPayout", reason: "account under review" }]);
  });
});

describe("audit log", () => {
  it("should page newest first, with the request id every answer carries", async () => {
    await using w = await adminWorld();
    const response = await w.api(new Request(`${ADMIN_URL}/svc.admin.v1.OperatorService/SignIn`, {
      method: "POST", headers: { "content-type": "application/json", "x-request-id": "mine-42" }, body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }),
    }));
    expect(response!.headers.get("x-request-id")).toBe("mine-42");
    const bad = await w.api(new Request(`${ADMIN_URL}/svc.admin.v1.OperatorService/GetMe`, { method: "POST", headers: { "x-request-id": "bad id\u0001" } }));
    expect(bad!.status).toBe(401);
    expect(bad!.headers.get("x-request-id")).toMatch(/^[\w.-]{1,128}$/);
    expect(await w.api(new Request(`${ADMIN_URL}/healthz`))).toBeUndefined();
    const first = await w.admin.audit.listAuditLog({ pageSize: 1 });
    expect(first.entries).toMatchObject([{ action: "OperatorService.SignIn", requestId: "mine-42" }]);
    const second = await w.admin.audit.listAuditLog({ pageSize: 1, pageToken: first.nextPageToken });
    expect(second.entries).toMatchObject([{ action: "OperatorService.SignIn", operatorUsername: "admin" }]);
    expect(second.entries[0]!.id).not.toBe(first.entries[0]!.id);
  });
});

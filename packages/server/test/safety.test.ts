import { describe, expect, it } from "vitest";
import { Code, REPORT_RATE, tables, type GameSessionRow } from "@playfield/core";
import { expectError, testServer, TRANSPORTS, type TestServer } from "./fixtures.js";
import { experience } from "./economy-fixtures.js";
import { member, members } from "./social-fixtures.js";

async function gameSession(t: TestServer, id: string, experienceId: string): Promise<void> {
  const now = t.server.clock.now();
  const row = { id, experienceId, placeVersionId: "ver_1", hostingTier: "edge", maxPlayers: 10, hostUserId: null, memberCount: 1, createdAt: now, closedAt: null } as unknown as GameSessionRow;
  await t.server.deps.storage.transact((tx) => tx.put(tables.gameSessions, row));
}

describe.each(TRANSPORTS)("SafetyService (%s)", (kind) => {
  describe("reportPlayer", () => {
    it("should queue a report with its checked references for the operator to list and resolve", async () => {
      await using t = await testServer(kind);
      const [ada, bob] = await members(t, 2);
      const world = await experience(t, bob!.user.userId);
      await gameSession(t, "gs_1", world.id);
      // The reporter is in the session, so its chat is a conversation they are in.
      await t.server.seed.gameToken(ada!.user, { experienceId: world.id, sessionId: "gs_1" });
      await t.server.deps.storage.transact((tx) => tx.put(tables.chatMessages, {
        id: "msg_123", conversationKey: "session:gs_1", pos: 1, senderId: bob!.user.userId, clientMessageId: "c1", text: "rude", childText: "rude", createdAt: 1,
      }));
      const { reportId } = await ada!.client.safety.reportPlayer({
        userId: bob!.user.userId, category: "harassment", details: "  rude in chat  ", experienceId: world.id, sessionId: "gs_1", messageId: "msg_123",
      });
      expect(reportId).toMatch(/^rpt_/);
      const [queued] = await t.server.operator.reports.list();
      expect(queued).toMatchObject({ id: reportId, kind: "player", reporterId: ada!.user.userId, targetUserId: bob!.user.userId, category: "harassment", details: "rude in chat", experienceId: world.id, sessionId: "gs_1", messageId: "msg_123", status: "open" });
      const resolved = await t.server.operator.reports.resolve(reportId, "warned");
      expect(resolved).toMatchObject({ status: "resolved", outcome: "warned" });
      expect(await t.server.operator.reports.list()).toEqual([]);
      expect((await t.server.operator.reports.list({ status: "resolved" })).map((r) => r.id)).toEqual([reportId]);
    });

    it("should refuse yourself, unknown users, experiences and sessions, a session of another experience, and bad categories", async () => {
      await using t = await testServer(kind);
      const [ada, bob] = await members(t, 2);
      const world = await experience(t, bob!.user.userId);
      const other = await experience(t, bob!.user.userId);
      await gameSession(t, "gs_1", other.id);
      const c = ada!.client.safety;
      const base = { userId: bob!.user.userId, category: "cheating" };
      await expectError(c.reportPlayer({ ...base, userId: ada!.user.userId }), Code.InvalidArgument, /^userId: you cannot report yourself/);
      await expectError(c.reportPlayer({ ...base, userId: "usr_nope" }), Code.NotFound, /^userId: no such user/);
      await expectError(c.reportPlayer({ ...base, experienceId: "exp_nope" }), Code.NotFound, /^experienceId: no such experience/);
      await expectError(c.reportPlayer({ ...base, sessionId: "gs_nope" }), Code.NotFound, /^sessionId: no such game session/);
      await expectError(c.reportPlayer({ ...base, experienceId: world.id, sessionId: "gs_1" }), Code.InvalidArgument, /^sessionId: not a session of experienceId/);
      await expectError(c.reportPlayer({ ...base, category: "rudeness" }), Code.InvalidArgument, /category/);
      await expectError(c.reportPlayer({ ...base, details: "x".repeat(1001) }), Code.InvalidArgument, /details/);
      expect(await t.server.operator.reports.list()).toEqual([]);
    });

    it("should refuse guests", async () => {
      await using t = await testServer(kind);
      const guest = await member(t, { guest: true });
      const bob = await member(t);
      await expectError(guest.client.safety.reportPlayer({ userId: bob.user.userId, category: "other" }), Code.PermissionDenied);
    });

    it("should rate-limit each reporter with resource_exhausted until the window passes", async () => {
      await using t = await testServer(kind);
      const [ada, bob, cy] = await members(t, 3);
      for (let i = 0; i < REPORT_RATE.limit; i++) await ada!.client.safety.reportPlayer({ userId: bob!.user.userId, category: "scam" });
      await expectError(ada!.client.safety.reportPlayer({ userId: bob!.user.userId, category: "scam" }), Code.ResourceExhausted, /too many reports/);
      // Another reporter is not affected.
      await expect(cy!.client.safety.reportPlayer({ userId: bob!.user.userId, category: "scam" })).resolves.toBeTruthy();
      t.server.clock.advance(REPORT_RATE.windowMs);
      await expect(ada!.client.safety.reportPlayer({ userId: bob!.user.userId, category: "scam" })).resolves.toBeTruthy();
    });
  });

  describe("reportExperience", () => {
    it("should queue a report of an existing experience and refuse your own or an unknown one", async () => {
      await using t = await testServer(kind);
      const [ada, bob] = await members(t, 2);
      const world = await experience(t, bob!.user.userId);
      const mine = await experience(t, ada!.user.userId);
      const { reportId } = await ada!.client.safety.reportExperience({ experienceId: world.id, category: "inappropriate_content", details: "bad" });
      expect((await t.server.operator.reports.list())[0]).toMatchObject({ id: reportId, kind: "experience", experienceId: world.id, targetUserId: "" });
      await expectError(ada!.client.safety.reportExperience({ experienceId: mine.id, category: "other" }), Code.InvalidArgument, /your own experience/);
      await expectError(ada!.client.safety.reportExperience({ experienceId: "exp_nope", category: "other" }), Code.NotFound, /^experienceId: /);
    });
  });

  describe("admin page", () => {
    it("should list open reports as HTML to the operator, escaped", async () => {
      await using t = await testServer(kind, { operatorToken: "op-secret" });
      const [ada, bob] = await members(t, 2);
      await ada!.client.safety.reportPlayer({ userId: bob!.user.userId, category: "other", details: "<script>x</script>" });
      const page = await t.fetch(new URL("/admin/reports", t.baseUrl), { headers: { authorization: "Bearer op-secret" } });
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      const html = await page.text();
      expect(html).toContain(bob!.user.userId);
      expect(html).not.toContain("<script>x");
    });

    it("should need the operator token, and not exist without one in any environment", async () => {
      await using guarded = await testServer(kind, { operatorToken: "op-secret" });
      expect((await guarded.fetch(new URL("/admin/reports", guarded.baseUrl))).status).toBe(401);
      expect((await guarded.fetch(new URL("/admin/reports", guarded.baseUrl), { headers: { authorization: "Bearer op-secreT" } })).status).toBe(401);
      const ok = await guarded.fetch(new URL("/admin/reports", guarded.baseUrl), { headers: { authorization: "Bearer op-secret" } });
      expect(ok.status).toBe(200);
      for (const environment of ["production", "development", "test"] as const) {
        await using open = await testServer(kind, { environment });
        expect((await open.fetch(new URL("/admin/reports", open.baseUrl))).status).toBe(404);
      }
    });
  });
});

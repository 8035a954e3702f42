import { fail, mayFileReport, REPORT_RATE, tables, type ReportRow, type SafetyService, type Tx } from "@playfield/core";
import type { HandlerContext } from "../../rpc/handler-context.js";
import type { ServiceImpl } from "../../rpc/router.js";
import { seenExperience, visibleExperience } from "../catalog/access.js";
import { inConversation } from "../chat/access.js";
import { requireUser } from "../identity/accounts.js";

/*
 * SafetyService: reports to the moderation queue (docs/safety.md); operators work the queue through safety-operator.ts.
 * What a report names must exist for the reporter: an experience they cannot see, a session of one, or a message of a
 * conversation they are not in is answered as an unknown id (catalog/access.ts, chat/access.ts).
 */

type ReportFields = Pick<ReportRow, "kind" | "targetUserId" | "experienceId" | "sessionId" | "messageId" | "category" | "details">;

/** Refuses a reporter over the rate (REPORT_RATE: reports filed in the sliding window). */
async function checkRate(tx: Tx, reporterId: string, now: number): Promise<void> {
  const recent = await tx.count(tables.reports, "byReporter", { equals: [reporterId], range: { gt: now - REPORT_RATE.windowMs } });
  if (!mayFileReport(recent)) throw fail.exhausted(`too many reports: at most ${REPORT_RATE.limit} an hour`);
}

async function fileReport(ctx: HandlerContext, check: (tx: Tx, me: string) => Promise<void>, fields: ReportFields): Promise<{ reportId: string }> {
  const me = ctx.user().userId;
  const { deps } = ctx;
  return deps.storage.transact(async (tx) => {
    await requireUser(tx, me);
    await check(tx, me);
    const now = deps.clock.now();
    await checkRate(tx, me, now);
    const report: ReportRow = { id: deps.ids.id("rpt"), reporterId: me, ...fields, status: "open", outcome: "", createdAt: now, resolvedAt: null };
    await tx.put(tables.reports, report);
    return { reportId: report.id };
  });
}

export const safetyService: ServiceImpl<typeof SafetyService> = {
  reportPlayer(req, ctx) {
    const details = req.details.trim();
    return fileReport(ctx, async (tx, me) => {
      if (req.userId === me) throw fail.invalid("userId: you cannot report yourself");
      const user = await tx.get(tables.users, req.userId);
      if (!user || user.deletedAt !== null) throw fail.notFound("userId: no such user");
      if (req.experienceId) await visibleExperience(tx, req.experienceId, me);
      if (req.sessionId) {
        const session = await tx.get(tables.gameSessions, req.sessionId);
        if (!session || !(await seenExperience(tx, session.experienceId, me))) throw fail.notFound("sessionId: no such game session");
        if (req.experienceId && session.experienceId !== req.experienceId) throw fail.invalid("sessionId: not a session of experienceId");
      }
      if (req.messageId) {
        const message = await tx.get(tables.chatMessages, req.messageId);
        if (!message || message.senderId !== req.userId || !(await inConversation(tx, me, message.conversationKey))) {
          throw fail.notFound("messageId: no such message from userId");
        }
      }
    }, { kind: "player", targetUserId: req.userId, experienceId: req.experienceId, sessionId: req.sessionId, messageId: req.messageId, category: req.category, details });
  },

  reportExperience(req, ctx) {
    const details = req.details.trim();
    return fileReport(ctx, async (tx, me) => {
      const experience = await visibleExperience(tx, req.experienceId, me);
      if (experience.creatorId === me) throw fail.invalid("experienceId: you cannot report your own experience");
    }, { kind: "experience", targetUserId: "", experienceId: req.experienceId, sessionId: "", messageId: "", category: req.category, details });
  },
};

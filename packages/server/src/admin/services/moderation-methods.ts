import { ADMIN_PAGE_DEFAULT, fail, tables, type Cursor, type ModerationService, type ReportRow } from "@playfield/core";
import type { AdminServiceImpl } from "../admin-router.js";
import { reportOf } from "./player-methods.js";

/** A page token of the queue: the last report's time and id (`1764680000000.rep_x`). */
const QUEUE_TOKEN = /^(\d{1,16})\.([\w-]{1,64})$/;

/** ModerationService: the queue of reports. */
export const moderationMethods: AdminServiceImpl<typeof ModerationService> = {
  async listReports(req, ctx) {
    const status = (req.status || "open") as ReportRow["status"];
    const size = req.pageSize || ADMIN_PAGE_DEFAULT;
    let after: Cursor | undefined;
    if (req.pageToken !== "") {
      const match = QUEUE_TOKEN.exec(req.pageToken);
      if (!match) throw fail.invalid("pageToken: not a page token this method gave");
      after = { key: [status, Number(match[1])], id: match[2]! };
    }
    const rows = await ctx.deps.storage.transact((tx) => tx.query(tables.reports, "byStatus", { equals: [status], limit: size + 1, ...(after ? { after } : {}) }), { readOnly: true });
    const page = rows.slice(0, size);
    const last = page[page.length - 1];
    return { reports: page.map(reportOf), nextPageToken: rows.length > size && last ? `${last.createdAt}.${last.id}` : "" };
  },

  async resolveReport(req, ctx) {
    return ctx.deps.storage.transact(async (tx) => {
      const report = await tx.get(tables.reports, req.reportId);
      if (!report) throw fail.notFound("reportId: no such report");
      if (report.status === "resolved") throw fail.precondition(`reportId: already resolved (${report.outcome})`);
      const resolved: ReportRow = { ...report, status: "resolved", outcome: req.outcome, note: req.note, resolvedAt: ctx.deps.clock.now() };
      await tx.put(tables.reports, resolved);
      await ctx.audit(tx, { action: "ModerationService.ResolveReport", target: `report:${report.id}`, before: reportOf(report), after: reportOf(resolved), reason: req.note });
      return reportOf(resolved);
    });
  },
};

import { REPORT_OUTCOMES, tables, type ReportOutcome, type ReportRow } from "@playfield/core";
import type { RawRoute, RouteAnswer } from "../../routes/route.js";
import type { ServerDeps } from "../../server-deps.js";

/*
 * The operator's side of the moderation queue: `server.operator.reports`
 * in process, and a read-only HTML page at GET /admin/reports. Not part of
 * the public API.
 */

/** A report as the operator sees it (times as ISO strings). */
export interface QueuedReport extends Omit<ReportRow, "createdAt" | "resolvedAt"> {
  createdAt: string;
  resolvedAt: string | null;
}

export interface ReportsOperator {
  /** Reports by status (default `open`), oldest first; at most `limit` (default 100). */
  list(options?: { status?: ReportRow["status"]; limit?: number }): Promise<QueuedReport[]>;
  /** Closes a report with an outcome; resolving a resolved report again changes nothing and answers it as it is. */
  resolve(reportId: string, outcome: ReportOutcome): Promise<QueuedReport>;
}

const toQueued = (row: ReportRow): QueuedReport => ({
  ...row,
  createdAt: new Date(row.createdAt).toISOString(),
  resolvedAt: row.resolvedAt === null ? null : new Date(row.resolvedAt).toISOString(),
});

export function createReportsOperator(deps: ServerDeps): ReportsOperator {
  return {
    list: ({ status = "open", limit = 100 } = {}) =>
      deps.storage.transact(async (tx) => (await tx.query(tables.reports, "byStatus", { equals: [status], limit })).map(toQueued)),
    async resolve(reportId, outcome) {
      if (!(REPORT_OUTCOMES as readonly string[]).includes(outcome)) throw new RangeError(`outcome: one of ${REPORT_OUTCOMES.join(", ")}`);
      return deps.storage.transact(async (tx) => {
        const report = await tx.get(tables.reports, reportId);
        if (!report) throw new RangeError(`reportId: no such report`);
        if (report.status === "resolved") return toQueued(report);
        const next: ReportRow = { ...report, status: "resolved", outcome, resolvedAt: deps.clock.now() };
        await tx.put(tables.reports, next);
        return toQueued(next);
      });
    },
  };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The admin page's HTML for a list of reports. */
export function renderReportsPage(reports: QueuedReport[], status: string): string {
  const rows = reports.map((r) => `<tr>${[r.id, r.createdAt, r.kind, r.kind === "player" ? r.targetUserId : r.experienceId, r.category, r.details, r.reporterId,
    [r.experienceId && `experience ${r.experienceId}`, r.sessionId && `session ${r.sessionId}`, r.messageId && `message ${r.messageId}`].filter(Boolean).join(", "),
    r.outcome].map((cell) => `<td>${escape(cell)}</td>`).join("")}</tr>`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Reports (${escape(status)})</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .5rem;text-align:left;vertical-align:top}</style></head>
<body><h1>Moderation queue: ${escape(status)} reports (${reports.length})</h1>
<p><a href="?status=open">open</a> · <a href="?status=resolved">resolved</a></p>
<table><thead><tr><th>id</th><th>filed</th><th>kind</th><th>target</th><th>category</th><th>details</th><th>reporter</th><th>where</th><th>outcome</th></tr></thead>
<tbody>${rows.join("\n") || `<tr><td colspan="9">No reports.</td></tr>`}</tbody></table></body></html>`;
}

/**
 * GET /admin/reports: only with `Authorization: Bearer <operatorToken>`, in
 * every environment (a development server reachable from a network is
 * still reachable); without a configured token it does not exist (404).
 */
export function adminReportsRoute(deps: ServerDeps, operatorToken: string | undefined): RawRoute {
  const reports = createReportsOperator(deps);
  return async (request): Promise<RouteAnswer | null> => {
    if (request.method !== "GET" || request.path !== "/admin/reports") return null;
    if (!operatorToken) return { status: 404, headers: { "content-type": "text/plain" }, body: "not found" };
    // Compared as hashes, so the time taken says nothing about the token.
    if (deps.hashSecret(request.header("authorization") ?? "") !== deps.hashSecret(`Bearer ${operatorToken}`)) {
      return { status: 401, headers: { "content-type": "text/plain", "www-authenticate": "Bearer" }, body: "operator token required" };
    }
    const status = request.query.get("status") === "resolved" ? "resolved" : "open";
    const html = renderReportsPage(await reports.list({ status, limit: 500 }), status);
    return { status: 200, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }, body: html };
  };
}

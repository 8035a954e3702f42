import { ADMIN_PAGE_DEFAULT, fail, tables, type AuditService } from "@playfield/core";
import type { AdminServiceImpl } from "../admin-router.js";
import { auditView } from "../audit-log.js";

/** AuditService: the audit log, newest first. */
export const auditMethods: AdminServiceImpl<typeof AuditService> = {
  async listAuditLog(req, ctx) {
    const size = req.pageSize || ADMIN_PAGE_DEFAULT;
    if (req.pageToken !== "" && !/^\d{1,16}$/.test(req.pageToken)) throw fail.invalid("pageToken: not a page token this method gave");
    const range = req.pageToken === "" ? {} : { range: { lt: Number(req.pageToken) } };
    const rows = await ctx.deps.storage.transact((tx) => req.target !== ""
      ? tx.query(tables.auditLog, "byTarget", { equals: [req.target], order: "desc", limit: size + 1, ...range })
      : tx.query(tables.auditLog, "bySeq", { order: "desc", limit: size + 1, ...range }), { readOnly: true });
    const page = rows.slice(0, size);
    return { entries: page.map(auditView), nextPageToken: rows.length > size ? String(page[page.length - 1]!.seq) : "" };
  },
};

import { dayStart, tables } from "@playfield/core";
import type { ServerDeps } from "../../server-deps.js";
import { iso } from "../identity/accounts.js";

/** Most uploads ListUploads shows, newest first. */
export const UPLOADS_SHOWN = 100;

/**
 * ListUploads: the caller's newest uploads (CatalogService.UploadContent
 * records them) and how many of today's (UTC) allowance are used.
 */
export async function listUploads(deps: ServerDeps, userId: string, dailyLimit: number) {
  return deps.storage.transact(async (tx) => {
    const rows = await tx.query(tables.contentUploads, "byUser", { equals: [userId], order: "desc", limit: UPLOADS_SHOWN });
    const usedToday = await tx.count(tables.contentUploads, "byUser", { equals: [userId], range: { gte: dayStart(deps.clock.now()) } });
    return {
      uploads: rows.map((row) => ({ sha256: row.sha256, url: `/content/${row.sha256}`, contentType: row.contentType, size: row.size, createdAt: iso(row.createdAt) })),
      usedToday,
      dailyLimit,
    };
  });
}

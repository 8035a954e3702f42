/*
 * Moderation report rules (SafetyService; the spec says "rate-limited" and
 * leaves the numbers open: see docs/safety.md).
 */

/** Reports one reporter may file in a sliding window. */
export const REPORT_RATE = { limit: 10, windowMs: 60 * 60_000 } as const;

/** Outcomes an operator resolves a report with. */
export const REPORT_OUTCOMES = ["no_action", "warned", "content_removed", "suspended", "banned"] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** Whether a reporter who filed `recent` reports within the window may file another. */
export function mayFileReport(recent: number, rate: { limit: number } = REPORT_RATE): boolean {
  return recent < rate.limit;
}

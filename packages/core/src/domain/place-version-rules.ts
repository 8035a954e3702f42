import { ownValue } from "../json/own-value.js";

/*
 * Pure checks of a place version's fields (CatalogService.PublishVersion):
 * content manifest URLs per cook target, minimum engine versions per
 * platform, and the Studio's budget report checked again against the
 * published budgets.
 */

/** Cook targets a place version has content for. */
export const COOK_TARGETS = ["web", "desktop", "mobile_high", "mobile_low"] as const;
export type CookTarget = (typeof COOK_TARGETS)[number];

/** Platforms `engineMin` names (the ones clients send on Join). */
export const ENGINE_PLATFORMS = ["web", "macos", "windows", "linux", "ios", "android"] as const;

/** Measures of a budget report, per cook target. */
export const BUDGET_METRICS = ["downloadBytes", "memoryBytes", "triangles", "drawCalls"] as const;
export type BudgetMetric = (typeof BUDGET_METRICS)[number];

const MiB = 1024 * 1024;

/** The published budgets: a version over any of them for any of its targets is rejected. */
export const PLACE_BUDGETS: Record<CookTarget, Record<BudgetMetric, number>> = {
  desktop: { downloadBytes: 500 * MiB, memoryBytes: 2048 * MiB, triangles: 5_000_000, drawCalls: 5_000 },
  web: { downloadBytes: 100 * MiB, memoryBytes: 1024 * MiB, triangles: 1_000_000, drawCalls: 2_000 },
  mobile_high: { downloadBytes: 200 * MiB, memoryBytes: 1024 * MiB, triangles: 1_000_000, drawCalls: 1_000 },
  mobile_low: { downloadBytes: 50 * MiB, memoryBytes: 384 * MiB, triangles: 250_000, drawCalls: 300 },
};

/** A content URL this server serves: `/content/<sha256>`, optionally after an http(s) origin. */
export const CONTENT_PATH = /^(?:https?:\/\/[^/?#\s]+)?\/content\/([0-9a-f]{64})$/;

/** `1`, `1.4`, `1.4.0`: up to three dot-separated numbers of at most 6 digits. */
const ENGINE_VERSION = /^\d{1,6}(?:\.\d{1,6}){0,2}$/;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
};

/**
 * The problem with a content URL (`field: rule`), or null. A URL is either this
 * server's `/content/<sha256>` (its hash is answered in `sha256` for the
 * caller to check it exists) or an absolute http(s) URL.
 */
export function contentUrlProblem(field: string, value: string): string | null {
  if (value === "") return `${field}: required`;
  if (CONTENT_PATH.test(value) || isHttpUrl(value)) return null;
  return `${field}: an http(s) URL or /content/<sha256>`;
}

/** The SHA-256 of a `/content/<sha256>` URL, or null for any other URL. */
export function contentHashOf(value: string): string | null {
  return CONTENT_PATH.exec(value)?.[1] ?? null;
}

/** The first problem with a version's content URLs and engine minimums, or null. */
export function placeVersionProblem(contentUrls: Record<string, string>, engineMin: Record<string, string>): string | null {
  const targets = Object.keys(contentUrls);
  if (targets.length === 0) return `contentUrls: at least one of ${COOK_TARGETS.join(", ")}`;
  for (const target of targets) {
    if (!(COOK_TARGETS as readonly string[]).includes(target)) return `contentUrls.${target}: not a cook target (one of ${COOK_TARGETS.join(", ")})`;
    const problem = contentUrlProblem(`contentUrls.${target}`, ownValue(contentUrls, target) ?? "");
    if (problem) return problem;
  }
  for (const [platform, version] of Object.entries(engineMin)) {
    if (!(ENGINE_PLATFORMS as readonly string[]).includes(platform)) return `engineMin.${platform}: not a platform (one of ${ENGINE_PLATFORMS.join(", ")})`;
    if (!ENGINE_VERSION.test(version)) return `engineMin.${platform}: a version like 1.4.0`;
  }
  return null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks a Studio budget report again against PLACE_BUDGETS: answers why the
 * version must be rejected, or null when it passes. The report is
 * `{"targets": {"<cook target>": {"downloadBytes": n, "memoryBytes": n,
 * "triangles": n, "drawCalls": n}}}` and must cover every target the version
 * publishes; other keys are ignored (newer Studios may add measures). Text
 * that is not JSON, a wrong shape or a missing measure is malformed.
 */
export function budgetReportProblem(reportJson: string, targets: readonly string[]): string | null {
  let report: unknown;
  try {
    report = JSON.parse(reportJson);
  } catch {
    return "budgetReportJson: malformed: not JSON";
  }
  if (!isRecord(report) || !isRecord(report.targets)) return "budgetReportJson: malformed: expected an object with a `targets` object";
  const reported = report.targets;
  for (const target of targets) {
    const budget = ownValue<Record<BudgetMetric, number>>(PLACE_BUDGETS, target);
    if (!budget) continue;
    const measures = ownValue(reported, target);
    if (!isRecord(measures)) return `budgetReportJson: malformed: no report for target ${target}`;
    for (const metric of BUDGET_METRICS) {
      const value = ownValue(measures, metric);
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
        return `budgetReportJson: malformed: targets.${target}.${metric} must be a non-negative number`;
      }
      if (value > budget[metric]) return `budgetReportJson: over budget: ${target} ${metric} ${value} > ${budget[metric]}`;
    }
  }
  return null;
}

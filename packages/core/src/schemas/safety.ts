/*
 * Schemas of the SafetyService: reports to the moderation queue.
 *
 * Caps (the spec leaves them open): ids at most 64 characters; details at most
 * 1000. ReportExperience takes the same categories as ReportPlayer (the spec
 * does not list its own).
 */
import { z } from "zod";
import { message, string } from "../wire/fields.js";

/** What a report is about. */
export const REPORT_CATEGORIES = ["harassment", "inappropriate_content", "cheating", "scam", "impersonation", "self_harm", "other"] as const;

const category = () =>
  string(z.string().refine((v) => (REPORT_CATEGORIES as readonly string[]).includes(v), { error: `one of ${REPORT_CATEGORIES.join(", ")}` }));
const details = () => string(z.string().max(1000, { error: "at most 1000 characters" }));
const requiredId = () => string(z.string().min(1, { error: "required" }).max(64, { error: "at most 64 characters" }));
const optionalId = () => string(z.string().max(64, { error: "at most 64 characters" }));

export const ReportPlayerRequest = message("ReportPlayerRequest", {
  userId: requiredId(),
  category: category(),
  details: details(),
  /** Where it happened, if in a game. */
  experienceId: optionalId(),
  sessionId: optionalId(),
  /** The reported chat message, if any. */
  messageId: optionalId(),
});

export const ReportExperienceRequest = message("ReportExperienceRequest", {
  experienceId: requiredId(),
  category: category(),
  details: details(),
});

export const ReportResponse = message("ReportResponse", { reportId: string() });

/*
 * Display-name, bio and group-name rules of the SocialService (the spec
 * leaves them open; see docs/social.md). Pure: the service calls them
 * after the schema's length caps.
 */
import { DISPLAY_NAME_MAX } from "./account-rules.js";

// Control and format characters (C0, C1, zero-width, bidi overrides): they hide or reorder text.
const HIDDEN = /[\p{Cc}\p{Cf}]/u;
const HIDDEN_BUT_LINES = /[^\P{Cc}\n\t]|\p{Cf}/u;

export const BIO_MAX = 1000;
export const GROUP_NAME_MIN = 3;
export const GROUP_NAME_MAX = 50;

/** A one-line name as stored: trimmed, inner whitespace runs made one space. */
export function normalizeName(name: string): string {
  return name.trim().replace(/\s+/g, " ");
}

/** Why a (normalized) display name may not be used, or null. */
export function displayNameProblem(name: string): string | null {
  if (name.length === 0) return "must not be blank";
  if (name.length > DISPLAY_NAME_MAX) return `at most ${DISPLAY_NAME_MAX} characters`;
  if (HIDDEN.test(name)) return "no control or invisible characters";
  return null;
}

/** Why a (trimmed) bio may not be used, or null. Line breaks and tabs are kept. */
export function bioProblem(bio: string): string | null {
  if (bio.length > BIO_MAX) return `at most ${BIO_MAX} characters`;
  if (HIDDEN_BUT_LINES.test(bio)) return "no control or invisible characters other than line breaks and tabs";
  return null;
}

/** Why a (normalized) group name may not be used, or null. */
export function groupNameProblem(name: string): string | null {
  if (name.length < GROUP_NAME_MIN || name.length > GROUP_NAME_MAX) return `${GROUP_NAME_MIN} to ${GROUP_NAME_MAX} characters`;
  if (HIDDEN.test(name)) return "no control or invisible characters";
  return null;
}

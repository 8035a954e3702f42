/*
 * Per-experience datastore limits (DESIGN.md, "Datastore budget"): calls per
 * minute up to a base plus more per player in the experience's sessions, and
 * stored bytes up to a base plus more per player ever seen. Both configurable.
 */

/** The limits' parameters. */
export interface DatastoreLimits {
  /** Calls per minute an experience gets with no player. */
  requestsPerMinute: number;
  /** More calls per minute for each player in its sessions. */
  requestsPerPlayer: number;
  /** Stored bytes an experience gets with no player. */
  storedBytes: number;
  /** More stored bytes for each player ever seen. */
  storedBytesPerPlayer: number;
  /** How long old values are kept after being overwritten or deleted. */
  retentionMs: number;
}

const MB = 1024 * 1024;

/** 300 + 40 × players calls a minute; 500 MB + 1 MB × players ever seen; 30 days of old values. */
export const DEFAULT_DATASTORE_LIMITS: DatastoreLimits = {
  requestsPerMinute: 300,
  requestsPerPlayer: 40,
  storedBytes: 500 * MB,
  storedBytesPerPlayer: MB,
  retentionMs: 30 * 24 * 60 * 60_000,
};

export const BUDGET_WINDOW_MS = 60_000;

/** Calls a minute for an experience with `players` players in its sessions. */
export function requestBudget(limits: DatastoreLimits, players: number): number {
  return limits.requestsPerMinute + limits.requestsPerPlayer * Math.max(0, players);
}

/** The stored-bytes cap of an experience that has seen `playersSeen` players. */
export function storedBytesCap(limits: DatastoreLimits, playersSeen: number): number {
  return limits.storedBytes + limits.storedBytesPerPlayer * Math.max(0, playersSeen);
}

/** The start of the one-minute window `now` falls in (windows are aligned to the minute). */
export function budgetWindowStart(now: number): number {
  return now - (((now % BUDGET_WINDOW_MS) + BUDGET_WINDOW_MS) % BUDGET_WINDOW_MS);
}

/** Whether a write that changes stored bytes by `delta` fits: shrinking always does. */
export function fitsStoredBytes(storedBytes: number, delta: number, cap: number): boolean {
  return delta <= 0 || storedBytes + delta <= cap;
}

/** UTF-8 length of a string, counted without encoding it. Lone surrogates count as 3 bytes (U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

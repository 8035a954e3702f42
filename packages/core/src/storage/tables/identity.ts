import { defineTable } from "../port.js";

/* IdentityService's tables: accounts, device sessions, refresh tokens, handoff codes, throttles. */

export interface AccountSettingsRow {
  whoCanMessage: "everyone" | "friends" | "nobody";
  whoCanFriend: "everyone" | "friends" | "nobody";
  whoCanJoin: "everyone" | "friends" | "nobody";
  showOnlineStatus: boolean;
  emailNotifications: boolean;
  theme: string;
}

export interface UserRow {
  id: string;
  username: string;
  /** The username lowercased: unique, so names are unique ignoring case. */
  usernameKey: string;
  displayName: string;
  /** Null for guests. */
  passwordHash: string | null;
  /** `YYYY-MM-DD`; null for guests. Never shown to others. */
  birthdate: string | null;
  guest: boolean;
  createdAt: number;
  /** Set when the account is deleted: it can no longer sign in and its tokens stop working. */
  deletedAt: number | null;
  settings: AccountSettingsRow;
  /** Raised by every SetAvatar: the headshot URL names it, so caches see a new one. Absent before the first save. */
  avatarVersion?: number;
  /** Set while an operator's ban holds (admin API): sign-in and refresh are refused. Absent on accounts never banned. */
  ban?: { at: number; reason: string; operatorId: string } | null;
}

export const users = defineTable<UserRow>()({
  name: "users",
  primaryKey: (row) => row.id,
  // The token check reads it on every authenticated call.
  cachedReads: true,
  indexes: {
    /** Counted: SearchUsers counts every user on each search (to catch users written around saveUser). */
    byUsername: { key: (row) => [row.usernameKey], unique: true, counted: true },
  },
});

/** A device session: what a refresh token keeps alive. Access tokens name it in `sid`. */
export interface DeviceRow {
  id: string;
  userId: string;
  label: string;
  createdAt: number;
  lastUsedAt: number;
  /** Refresh tokens stop working after this. */
  expiresAt: number;
  /** Set when signed out, revoked, replaced or the account is deleted. */
  revokedAt: number | null;
}

export const devices = defineTable<DeviceRow>()({
  name: "devices",
  primaryKey: (row) => row.id,
  // The token check reads it on every authenticated call.
  cachedReads: true,
  indexes: {
    byUser: { key: (row) => [row.userId, row.createdAt] },
  },
});

/** A refresh token, stored hashed. A rotated one presented again revokes its device. */
export interface RefreshTokenRow {
  hash: string;
  deviceId: string;
  userId: string;
  rotated: boolean;
}

export const refreshTokens = defineTable<RefreshTokenRow>()({
  name: "refresh_tokens",
  primaryKey: (row) => row.hash,
  indexes: {
    byDevice: { key: (row) => [row.deviceId] },
  },
});

/** A cross-host sign-on code (RFC 7636 S256), stored hashed. */
export interface HandoffRow {
  hash: string;
  userId: string;
  targetOrigin: string;
  codeChallenge: string;
  label: string;
  expiresAt: number;
  spent: boolean;
}

export const handoffs = defineTable<HandoffRow>()({
  name: "handoffs",
  primaryKey: (row) => row.hash,
  indexes: {},
});

/** Attempts counted against a key (a username, a client address, both, an account) in a time window. */
export interface ThrottleRow {
  key: string;
  failures: number;
  windowStart: number;
  /** A slowed key past its limit: the earliest time of the next attempt (domain/throttle.ts). */
  nextAt?: number;
}

export const throttles = defineTable<ThrottleRow>()({
  name: "throttles",
  primaryKey: (row) => row.key,
  indexes: {},
});


import { defineTable } from "../port.js";
import type { HostingTier } from "./catalog.js";

/* SessionService's tables: running game sessions, their members, and the plays (visits) recorded for discovery and analytics. */

export interface GameSessionRow {
  id: string;
  experienceId: string;
  /** The version the session started with: it keeps it when the live version changes. */
  placeVersionId: string;
  hostingTier: HostingTier;
  maxPlayers: number;
  /** Peer tier: the host's user id. Null when the tier has no host. */
  hostUserId: string | null;
  memberCount: number;
  /** Where players connect: the signalling address (peer) or the allocated server (edge, dedicated); "" or absent for solo. */
  connectUrl?: string;
  createdAt: number;
  /** Set when the last member leaves. */
  closedAt: number | null;
}

export const gameSessions = defineTable<GameSessionRow>()({
  name: "game_sessions",
  primaryKey: (row) => row.id,
  // A datastore Get reads it (is the session on record?) in a read-only transaction; written at joins, leaves and sweeps.
  cachedReads: true,
  indexes: {
    /** Open sessions of an experience (closed ones leave the index). */
    openByExperience: { key: (row) => (row.closedAt === null ? [row.experienceId, row.createdAt] : null) },
    /** Open multiplayer sessions of a version by member count: matchmaking reads the fullest first. */
    openByVersion: {
      key: (row) => (row.closedAt === null && row.hostingTier !== "solo" ? [row.placeVersionId, row.memberCount, row.createdAt] : null),
    },
  },
});

/** A member of a game session: a game token is good while its row exists. */
export interface SessionMemberRow {
  /** `${sessionId}:${userId}` */
  id: string;
  sessionId: string;
  userId: string;
  experienceId: string;
  joinedAt: number;
  lastHeartbeatAt: number;
  /** The play this membership records (plays table); absent on rows seeded without a session. */
  playId?: string;
}

export const sessionMembers = defineTable<SessionMemberRow>()({
  name: "session_members",
  primaryKey: (row) => row.id,
  // The token check reads it on every authenticated call.
  cachedReads: true,
  indexes: {
    bySession: { key: (row) => [row.sessionId, row.joinedAt] },
    byUser: { key: (row) => [row.userId] },
    /** Players in an experience's sessions now ("playing now", the datastore budget). */
    byExperience: { key: (row) => [row.experienceId, row.joinedAt] },
    /** Silent members first: the sweep drops those past the silence limit. */
    byHeartbeat: { key: (row) => [row.lastHeartbeatAt] },
  },
});

/**
 * Where a user plays now: their first `session_members` row (by id), kept
 * beside it by every write of a membership, so that the presence of many
 * users (a friends list) is one read by primary key, not a query per user.
 */
export interface PlayingRow {
  userId: string;
  sessionId: string;
  experienceId: string;
}

export const playing = defineTable<PlayingRow>()({
  name: "playing",
  primaryKey: (row) => row.userId,
  indexes: {},
});

/** One play of an experience: a member's time in a session, for visits, unique players, session length and retention. */
export interface PlayRow {
  id: string;
  experienceId: string;
  userId: string;
  sessionId: string;
  joinedAt: number;
  /** Null while playing. */
  leftAt: number | null;
}

export const plays = defineTable<PlayRow>()({
  name: "plays",
  primaryKey: (row) => row.id,
  indexes: {
    byExperience: { key: (row) => [row.experienceId, row.joinedAt] },
    byUser: { key: (row) => [row.userId, row.joinedAt] },
    /** Every play by join time: `trending` and `up_and_coming` read a window's plays as one range. */
    byTime: { key: (row) => [row.joinedAt] },
    /** Plays of an experience by user: unique players and day-1 retention. */
    byExperienceUser: { key: (row) => [row.experienceId, row.userId, row.joinedAt] },
  },
});

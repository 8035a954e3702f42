import { defineTable } from "../port.js";

/*
 * SocialService's tables (and the avatars and reports of the Avatar and
 * Safety services, which share the social rules). A friendship is stored as two directed edges, one
 * per side, so each side's list is one index range; both edges are written
 * and removed in the same transaction.
 */

export interface FriendEdgeRow {
  /** `${userId}:${friendId}` */
  id: string;
  userId: string;
  friendId: string;
  createdAt: number;
}

export const friendEdges = defineTable<FriendEdgeRow>()({
  name: "friend_edges",
  primaryKey: (row) => row.id,
  indexes: {
    byUser: { key: (row) => [row.userId, row.createdAt] },
  },
});

export interface BlockRow {
  /** `${blockerId}:${blockedId}` */
  id: string;
  blockerId: string;
  blockedId: string;
  createdAt: number;
}

export const blocks = defineTable<BlockRow>()({
  name: "blocks",
  primaryKey: (row) => row.id,
  indexes: {
    byBlocker: { key: (row) => [row.blockerId, row.createdAt] },
    byBlocked: { key: (row) => [row.blockedId, row.createdAt] },
  },
});

/** A pending friend request; accepting or declining removes it. */
export interface FriendRequestRow {
  /** `${fromId}:${toId}` */
  id: string;
  fromId: string;
  toId: string;
  createdAt: number;
}

export const friendRequests = defineTable<FriendRequestRow>()({
  name: "friend_requests",
  primaryKey: (row) => row.id,
  indexes: {
    byFrom: { key: (row) => [row.fromId, row.createdAt] },
    byTo: { key: (row) => [row.toId, row.createdAt] },
  },
});

export interface FollowRow {
  /** `${followerId}:${followeeId}` */
  id: string;
  followerId: string;
  followeeId: string;
  createdAt: number;
}

export const follows = defineTable<FollowRow>()({
  name: "follows",
  primaryKey: (row) => row.id,
  indexes: {
    byFollower: { key: (row) => [row.followerId, row.createdAt] },
    byFollowee: { key: (row) => [row.followeeId, row.createdAt] },
  },
});

/** What a profile holds beyond the user row (the display name lives on the user). */
export interface ProfileRow {
  userId: string;
  bio: string;
  updatedAt: number;
}

export const profiles = defineTable<ProfileRow>()({
  name: "profiles",
  primaryKey: (row) => row.userId,
  indexes: {},
});

export interface GroupRow {
  id: string;
  name: string;
  /** The name lowercased: unique, so names are unique ignoring case. */
  nameKey: string;
  description: string;
  ownerId: string;
  memberCount: number;
  createdAt: number;
}

export const groups = defineTable<GroupRow>()({
  name: "groups",
  primaryKey: (row) => row.id,
  indexes: {
    byNameKey: { key: (row) => [row.nameKey], unique: true },
  },
});

export interface GroupMemberRow {
  /** `${groupId}:${userId}` */
  id: string;
  groupId: string;
  userId: string;
  /** 1 to 255: Owner = 255, Admin = 200-254, Member = 1-199. */
  rank: number;
  joinedAt: number;
}

export const groupMembers = defineTable<GroupMemberRow>()({
  name: "group_members",
  primaryKey: (row) => row.id,
  indexes: {
    /** Highest rank first, then by joining time. */
    byGroup: { key: (row) => [row.groupId, 255 - row.rank, row.joinedAt] },
    byUser: { key: (row) => [row.userId, row.joinedAt] },
  },
});

/**
 * One search term of a user's or a group's names (see domain/search-ranking.ts):
 * name suffixes for substring matches, display-name words for word prefixes.
 */
export interface SearchTermRow {
  /** `${kind}:${ownerId}:${n}` */
  id: string;
  /** `u` user, `g` group. */
  kind: "u" | "g";
  /** `s` name suffix, `w` display-name word. */
  tag: "s" | "w";
  term: string;
  ownerId: string;
}

export const searchTerms = defineTable<SearchTermRow>()({
  name: "search_terms",
  primaryKey: (row) => row.id,
  indexes: {
    byTerm: { key: (row) => [row.kind, row.tag, row.term, row.ownerId] },
  },
});

/** Which names of a user or group the search terms were built from. */
export interface SearchSourceRow {
  /** `${kind}:${ownerId}` */
  id: string;
  kind: "u" | "g";
  ownerId: string;
  /** The indexed names, joined: a different value means the terms are stale. */
  source: string;
  termCount: number;
}

export const searchSources = defineTable<SearchSourceRow>()({
  name: "search_sources",
  primaryKey: (row) => row.id,
  indexes: {
    /** Counted: SearchUsers counts the users indexed as rows on each search. */
    byKind: { key: (row) => [row.kind], counted: true },
  },
});

/** The terms of many subjects, packed: what `search_terms` holds for them, read in (term, id) order. */
export interface NameSegment {
  kind: "u" | "g";
  /** How many subjects. */
  count: number;
  /** The subjects' ids in id order, concatenated: subject i is `ids.slice(idBounds[i], idBounds[i + 1])`. */
  ids: string;
  idBounds: Int32Array;
  /** Each subject's indexed names (`sourceText`), concatenated likewise. */
  sources: string;
  sourceBounds: Int32Array;
  /** Each subject's name key closed by TERM_END, in id order: subject i's from `keyStarts[i]`. */
  keys: string;
  keyStarts: Int32Array;
  /** Where each suffix term (tier 3) starts in `keys`, in (term, id) order; it runs to its TERM_END. */
  suffixes: Int32Array;
  /** The distinct words (tier 2) in order, each closed by TERM_END: word k from `wordStarts[k]`. Names share words. */
  words: string;
  wordStarts: Int32Array;
  /** The subjects having word k: `wordOwners[wordBounds[k]]` to before `wordBounds[k + 1]`, in id order. */
  wordBounds: Int32Array;
  wordOwners: Int32Array;
}

/**
 * A kind's current segment: which one (its id names its content: a SHA-256
 * of the stored segment, so a process may keep a segment it read, and never
 * mistake another for it), how many subjects it holds, and how many of them
 * have newer names in `search_sources` rows (renamed since the build). Small:
 * every saveUser and search reads it; the segment itself is read once per
 * process and id.
 */
export interface SearchSegmentRow {
  kind: "u" | "g";
  segmentId: string;
  /** Subjects in the segment. */
  count: number;
  /** Subjects of the segment that also have a `search_sources` row (renamed since the build). */
  overlap: number;
}

/** At most one current segment per kind. */
export const searchSegments = defineTable<SearchSegmentRow>()({
  name: "search_segments",
  primaryKey: (row) => row.kind,
  indexes: {},
});

/** A NameSegment as a row holds it: JSON only, its Int32Arrays as arrays of numbers. */
export type StoredNameSegment = { [K in keyof NameSegment]: NameSegment[K] extends Int32Array ? number[] : NameSegment[K] };

/** A built segment, by id (see SearchSegmentRow): written once, never changed, deleted when replaced. */
export interface SearchSegmentDataRow {
  id: string;
  segment: StoredNameSegment;
}

export const searchSegmentData = defineTable<SearchSegmentDataRow>()({
  name: "search_segment_data",
  primaryKey: (row) => row.id,
  indexes: {},
});

/** A saved avatar (AvatarService). Users with no row wear the default avatar. */
export interface AvatarRow {
  userId: string;
  specVersion: number;
  body: string;
  tints: Record<string, string>;
  wornItemIds: string[];
  /** Emote item ids by slot ("1" to "8"). */
  emotes: Record<string, string>;
  base: string;
  proportions: Record<string, number>;
  /** Raised by every save: the headshot URL carries it. */
  version: number;
  updatedAt: number;
}

export const avatars = defineTable<AvatarRow>()({
  name: "avatars",
  primaryKey: (row) => row.userId,
  indexes: {},
});

/** A report in the moderation queue (SafetyService). */
export interface ReportRow {
  id: string;
  reporterId: string;
  kind: "player" | "experience";
  /** The reported user (player reports), else "". */
  targetUserId: string;
  experienceId: string;
  sessionId: string;
  /** A chat message id as given: checked once chat keeps messages. */
  messageId: string;
  category: string;
  details: string;
  status: "open" | "resolved";
  /** What the operator decided. */
  outcome: string;
  /** The operator's note on closing it (admin API); absent before. */
  note?: string;
  createdAt: number;
  resolvedAt: number | null;
}

export const reports = defineTable<ReportRow>()({
  name: "reports",
  primaryKey: (row) => row.id,
  indexes: {
    byStatus: { key: (row) => [row.status, row.createdAt] },
    byReporter: { key: (row) => [row.reporterId, row.createdAt] },
    /** Reports against a player (the admin API's player page). */
    byTarget: { key: (row) => (row.kind === "player" ? [row.targetUserId, row.createdAt] : null) },
  },
});

import { defineTable } from "../port.js";
import { genreKey, ratingScore } from "../../domain/discovery-ranking.js";

/* CatalogService's tables: experiences, their place versions, votes, favorites, testers, search terms, uploads and blobs. */

export type Visibility = "draft" | "public" | "private";
export type HostingTier = "solo" | "peer" | "edge" | "dedicated";

export interface ExperienceRow {
  id: string;
  creatorId: string;
  title: string;
  description: string;
  genre: string;
  thumbnailUrl: string;
  visibility: Visibility;
  /** Of the start place. */
  hostingTier: HostingTier;
  maxPlayers: number;
  startPlaceId: string;
  /** Null before the first publish. */
  liveVersionId: string | null;
  createdAt: number;
  updatedAt: number;
  /** Counters kept with the row so lists need no joins. */
  visits: number;
  favorites: number;
  upVotes: number;
  downVotes: number;
}

/* Discovery indexes hold public experiences only: the key of any other row is null. */
const ifPublic = (row: ExperienceRow, key: (string | number)[]) => (row.visibility === "public" ? key : null);

export const experiences = defineTable<ExperienceRow>()({
  name: "experiences",
  primaryKey: (row) => row.id,
  indexes: {
    byCreator: { key: (row) => [row.creatorId, row.createdAt] },
    byVisibility: { key: (row) => [row.visibility, row.createdAt] },
    /** `popular` after the experiences with players right now: visits kept up to date by the row itself. */
    publicByVisits: { key: (row) => ifPublic(row, [row.visits]) },
    publicByGenreVisits: { key: (row) => ifPublic(row, [genreKey(row.genre), row.visits]) },
    /** `new`, by genre. */
    publicByGenreCreated: { key: (row) => ifPublic(row, [genreKey(row.genre), row.createdAt]) },
    /** `top_rated`: the lower bound of the share of up votes, then up votes. */
    publicByRating: { key: (row) => ifPublic(row, [ratingScore(row.upVotes, row.downVotes), row.upVotes]) },
  },
});

export type VersionStatus = "pending" | "live" | "rejected";

export interface PlaceVersionRow {
  id: string;
  experienceId: string;
  placeId: string;
  number: number;
  contentUrls: Record<string, string>;
  engineMin: Record<string, string>;
  status: VersionStatus;
  /** Why a version was rejected. */
  rejectReason: string;
  notes: string;
  createdAt: number;
}

export const placeVersions = defineTable<PlaceVersionRow>()({
  name: "place_versions",
  primaryKey: (row) => row.id,
  indexes: {
    byExperience: { key: (row) => [row.experienceId, row.number], unique: true },
  },
});

/** A user's vote on an experience (1 or -1); clearing a vote deletes the row. */
export interface ExperienceVoteRow {
  /** `${experienceId}:${userId}` */
  id: string;
  experienceId: string;
  userId: string;
  vote: 1 | -1;
  createdAt: number;
}

export const experienceVotes = defineTable<ExperienceVoteRow>()({
  name: "experience_votes",
  primaryKey: (row) => row.id,
  indexes: {
    byUser: { key: (row) => [row.userId, row.createdAt] },
  },
});

/** A user's favorite (guests too). */
export interface ExperienceFavoriteRow {
  /** `${experienceId}:${userId}` */
  id: string;
  experienceId: string;
  userId: string;
  createdAt: number;
}

export const experienceFavorites = defineTable<ExperienceFavoriteRow>()({
  name: "experience_favorites",
  primaryKey: (row) => row.id,
  indexes: {
    byUser: { key: (row) => [row.userId, row.createdAt] },
  },
});

/** A tester of an experience: sees and joins it whatever its visibility. */
export interface ExperienceTesterRow {
  /** `${experienceId}:${userId}` */
  id: string;
  experienceId: string;
  userId: string;
  addedAt: number;
}

export const experienceTesters = defineTable<ExperienceTesterRow>()({
  name: "experience_testers",
  primaryKey: (row) => row.id,
  indexes: {
    byExperience: { key: (row) => [row.experienceId, row.addedAt] },
    byUser: { key: (row) => [row.userId, row.addedAt] },
  },
});

/** One word of a public experience's title or genre, for `search` (kept in step with the experience by CatalogService). */
export interface ExperienceTermRow {
  /** `${term}:${experienceId}` */
  id: string;
  term: string;
  experienceId: string;
  /** The experience's normalised title and words (`searchFields`), so ranking reads no experience and normalises nothing. */
  words: string[];
  title: string;
}

export const experienceTerms = defineTable<ExperienceTermRow>()({
  name: "experience_terms",
  primaryKey: (row) => row.id,
  indexes: {
    /** Prefix search is a range on this index. */
    byTerm: { key: (row) => [row.term, row.experienceId] },
    byExperience: { key: (row) => [row.experienceId] },
  },
});

/** One UploadContent call: each counts against the uploader's daily limit, even when the bytes were stored before. */
export interface ContentUploadRow {
  id: string;
  userId: string;
  sha256: string;
  contentType: string;
  size: number;
  /** The caller's hint, for logs only. */
  name: string;
  createdAt: number;
}

export const contentUploads = defineTable<ContentUploadRow>()({
  name: "content_uploads",
  primaryKey: (row) => row.id,
  indexes: {
    /** Uploads per user per day: a range on createdAt. */
    byUser: { key: (row) => [row.userId, row.createdAt] },
  },
});

/** A stored blob's metadata; its bytes live in the server's BlobStore under `sha256`. */
export interface ContentBlobRow {
  /** Lowercase hex SHA-256 of the bytes. */
  sha256: string;
  /** The content type of the first upload of these bytes: the one it is served with. */
  contentType: string;
  size: number;
  createdAt: number;
}

export const contentBlobs = defineTable<ContentBlobRow>()({
  name: "content_blobs",
  primaryKey: (row) => row.sha256,
  indexes: {},
});

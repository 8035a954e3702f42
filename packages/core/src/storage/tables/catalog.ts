import { defineTable } from "../port.js";

/* CatalogService's tables: experiences, their place versions, votes, favorites, testers, uploads. */

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

export const experiences = defineTable<ExperienceRow>()({
  name: "experiences",
  primaryKey: (row) => row.id,
  indexes: {
    byCreator: { key: (row) => [row.creatorId, row.createdAt] },
    byVisibility: { key: (row) => [row.visibility, row.createdAt] },
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

import {
  tables,
  type CatalogService, type ExperienceRow, type MethodOutput, type PlaceVersionRow, type Tx,
} from "@playfield/core";
import { iso, userSummary } from "../identity/accounts.js";
import { playersNowOf } from "./players-now.js";

/* The answers of CatalogService built from rows: one way to render an experience and a version. */

type Experience = MethodOutput<typeof CatalogService.methods.getExperience>;
type PlaceVersion = MethodOutput<typeof CatalogService.methods.publishVersion>;

/** A user's vote or favorite row id on an experience. */
export const memberKey = (experienceId: string, userId: string) => `${experienceId}:${userId}`;

export function placeVersionView(row: PlaceVersionRow): PlaceVersion {
  return {
    id: row.id,
    placeId: row.placeId,
    number: row.number,
    contentUrls: { ...row.contentUrls },
    engineMin: { ...row.engineMin },
    status: row.status,
    createdAt: iso(row.createdAt),
    notes: row.notes,
    rejectReason: row.rejectReason,
  };
}

const deletedCreator = (id: string) => ({ id, username: "", displayName: "", headshotUrl: "" });

/** Renders experiences for a viewer (null: anonymous): creator, live version, players now, and the viewer's favorite and vote. */
export async function experienceViews(tx: Tx, rows: readonly ExperienceRow[], viewerId: string | null): Promise<Experience[]> {
  const creatorIds = [...new Set(rows.map((row) => row.creatorId))];
  const liveIds = rows.flatMap((row) => (row.liveVersionId === null ? [] : [row.liveVersionId]));
  const mine = viewerId === null ? [] : rows.map((row) => memberKey(row.id, viewerId));
  // Each kind of row read once for the whole list.
  const [creatorRows, liveRows, votes, favorites, playing] = await Promise.all([
    tx.getMany(tables.users, creatorIds),
    tx.getMany(tables.placeVersions, liveIds),
    tx.getMany(tables.experienceVotes, mine),
    tx.getMany(tables.experienceFavorites, mine),
    playersNowOf(tx, rows.map((row) => row.id)),
  ]);
  const creators = new Map(creatorIds.map((id, i) => [id, creatorRows[i]]));
  const live = new Map(liveIds.map((id, i) => [id, liveRows[i]]));
  return rows.map((row, i) => {
    const creator = creators.get(row.creatorId);
    const version = row.liveVersionId === null ? undefined : live.get(row.liveVersionId);
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      creator: creator && creator.deletedAt === null ? userSummary(creator) : deletedCreator(row.creatorId),
      genre: row.genre,
      thumbnailUrl: row.thumbnailUrl,
      visibility: row.visibility,
      playingNow: playing[i]!,
      visits: row.visits,
      favorites: row.favorites,
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
      ...(version ? { liveVersion: placeVersionView(version) } : {}),
      startPlaceId: row.startPlaceId,
      hostingTier: row.hostingTier,
      maxPlayers: row.maxPlayers,
      favorited: favorites[i] !== undefined,
      upVotes: row.upVotes,
      downVotes: row.downVotes,
      myVote: votes[i]?.vote ?? 0,
    };
  });
}

export async function experienceView(tx: Tx, row: ExperienceRow, viewerId: string | null): Promise<Experience> {
  return (await experienceViews(tx, [row], viewerId))[0]!;
}

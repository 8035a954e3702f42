import {
  tables,
  type CatalogService, type ExperienceRow, type MethodOutput, type PlaceVersionRow, type Tx, type UserRow,
} from "@playfield/core";
import { iso, userSummary } from "../identity/accounts.js";

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

/** Players in the experience's open sessions right now. */
export async function playingNow(tx: Tx, experienceId: string): Promise<number> {
  let players = 0;
  for (const session of await tx.query(tables.gameSessions, "openByExperience", { equals: [experienceId] })) players += session.memberCount;
  return players;
}

const deletedCreator = (id: string) => ({ id, username: "", displayName: "", headshotUrl: "" });

/** Renders experiences for a viewer (null: anonymous): creator, live version, players now, and the viewer's favorite and vote. */
export async function experienceViews(tx: Tx, rows: readonly ExperienceRow[], viewerId: string | null): Promise<Experience[]> {
  const creators = new Map<string, UserRow | undefined>();
  const views: Experience[] = [];
  for (const row of rows) {
    if (!creators.has(row.creatorId)) creators.set(row.creatorId, await tx.get(tables.users, row.creatorId));
    const creator = creators.get(row.creatorId);
    const live = row.liveVersionId === null ? undefined : await tx.get(tables.placeVersions, row.liveVersionId);
    const vote = viewerId === null ? undefined : await tx.get(tables.experienceVotes, memberKey(row.id, viewerId));
    const favorite = viewerId === null ? undefined : await tx.get(tables.experienceFavorites, memberKey(row.id, viewerId));
    views.push({
      id: row.id,
      title: row.title,
      description: row.description,
      creator: creator && creator.deletedAt === null ? userSummary(creator) : deletedCreator(row.creatorId),
      genre: row.genre,
      thumbnailUrl: row.thumbnailUrl,
      visibility: row.visibility,
      playingNow: await playingNow(tx, row.id),
      visits: row.visits,
      favorites: row.favorites,
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
      ...(live ? { liveVersion: placeVersionView(live) } : {}),
      startPlaceId: row.startPlaceId,
      hostingTier: row.hostingTier,
      maxPlayers: row.maxPlayers,
      favorited: favorite !== undefined,
      upVotes: row.upVotes,
      downVotes: row.downVotes,
      myVote: vote?.vote ?? 0,
    });
  }
  return views;
}

export async function experienceView(tx: Tx, row: ExperienceRow, viewerId: string | null): Promise<Experience> {
  return (await experienceViews(tx, [row], viewerId))[0]!;
}

import { createMemoryTokenStore, type PlayfieldClient } from "@playfield/client";
import { tables, type GameSessionRow, type PlayRow } from "@playfield/core";
import type { SeedUserOptions, SeededUser } from "@playfield/server-memory";
import type { TestServer } from "./fixtures.js";

/* Fixtures of the catalog suites: signed-in clients, published experiences, and plays and sessions written straight to storage (as SessionService records them). */

export interface Member {
  user: SeededUser;
  client: PlayfieldClient;
}

/** A seeded account (or guest) and a client signed in as it. */
export async function member(t: TestServer, options: SeedUserOptions = {}): Promise<Member> {
  const user = await t.server.seed.user(options);
  const client = t.client({ tokenStore: createMemoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken, expiresAt: 0 }) });
  return { user, client };
}

export const WEB_MANIFEST = { web: "https://cdn.example.com/worlds/1/web.json" };

/** An experience of `owner`, published once and public unless told otherwise. */
export async function publishedExperience(
  owner: Member,
  options: { title?: string; genre?: string; visibility?: "draft" | "public" | "private" } = {},
) {
  const created = await owner.client.catalog.createExperience({ title: options.title ?? "Sky Islands", genre: options.genre ?? "adventure", hostingTier: "edge", maxPlayers: 20 });
  await owner.client.catalog.publishVersion({ experienceId: created.id, contentUrls: WEB_MANIFEST });
  const visibility = options.visibility ?? "public";
  if (visibility === "draft") return owner.client.catalog.getExperience({ experienceId: created.id });
  return owner.client.catalog.updateExperience({ experienceId: created.id, visibility });
}

let counter = 0;

/** Records a play (a join) of a user, and bumps the experience's visits, as SessionService does on Join. */
export async function recordPlay(t: TestServer, experienceId: string, userId: string, joinedAt = t.server.clock.now()): Promise<void> {
  counter += 1;
  await t.server.deps.storage.transact(async (tx) => {
    const play: PlayRow = { id: `ply_t${counter}`, experienceId, userId, sessionId: `gs_t${counter}`, joinedAt, leftAt: joinedAt + 60_000 };
    await tx.put(tables.plays, play);
    const row = await tx.get(tables.experiences, experienceId);
    if (row) await tx.put(tables.experiences, { ...row, visits: row.visits + 1 });
  });
}

/** An open game session of the experience with `players` members. */
export async function openSession(t: TestServer, experienceId: string, players: number): Promise<void> {
  counter += 1;
  const now = t.server.clock.now();
  const session: GameSessionRow = {
    id: `gs_open${counter}`, experienceId, placeVersionId: "ver_x", hostingTier: "edge", maxPlayers: 50,
    hostUserId: null, memberCount: players, createdAt: now, closedAt: null,
  };
  await t.server.deps.storage.transact((tx) => tx.put(tables.gameSessions, session));
}

import { tables, type ExperienceRow, type HostingTier, type PlaceVersionRow, type Visibility } from "@playfield/core";
import type { PlayfieldClient } from "@playfield/client";
import type { MemoryServer } from "@playfield/server-memory";
import type { SeededUser } from "@playfield/server-memory";
import type { TestServer } from "./fixtures.js";

/*
 * Test helpers of the session suites: experiences and versions written
 * straight into storage (CatalogService builds them through the API), users
 * with clients, friendships and blocks.
 */

export interface ExperienceInit {
  creatorId?: string;
  visibility?: Visibility;
  hostingTier?: HostingTier;
  maxPlayers?: number;
  title?: string;
  published?: boolean;
  contentUrls?: Record<string, string>;
  engineMin?: Record<string, string>;
}

let counter = 0;

/** Writes an experience and (unless `published: false`) its live version 1. */
export async function addExperience(server: MemoryServer, init: ExperienceInit = {}): Promise<{ experience: ExperienceRow; version: PlaceVersionRow | null }> {
  counter += 1;
  const now = server.clock.now();
  const id = `exp_test${counter}`;
  const version: PlaceVersionRow | null = init.published === false ? null : {
    id: `ver_test${counter}_1`, experienceId: id, placeId: `plc_test${counter}`, number: 1,
    contentUrls: init.contentUrls ?? { web: "https://cdn.test/web.json", desktop: "https://cdn.test/desktop.json", mobile_low: "https://cdn.test/mobile_low.json" },
    engineMin: init.engineMin ?? {}, status: "live", rejectReason: "", notes: "", createdAt: now,
  };
  const experience: ExperienceRow = {
    id, creatorId: init.creatorId ?? "usr_creator", title: init.title ?? `Game ${counter}`, description: "", genre: "action", thumbnailUrl: "",
    visibility: init.visibility ?? "public", hostingTier: init.hostingTier ?? "peer", maxPlayers: init.maxPlayers ?? 8,
    startPlaceId: `plc_test${counter}`, liveVersionId: version?.id ?? null, createdAt: now, updatedAt: now,
    visits: 0, favorites: 0, upVotes: 0, downVotes: 0,
  };
  await server.deps.storage.transact(async (tx) => {
    await tx.put(tables.experiences, experience);
    if (version) await tx.put(tables.placeVersions, version);
  });
  return { experience, version };
}

/** Publishes a new live version of an experience. */
export async function publishVersion(server: MemoryServer, experienceId: string, number: number): Promise<PlaceVersionRow> {
  const version: PlaceVersionRow = {
    id: `ver_${experienceId}_${number}`, experienceId, placeId: "plc", number, contentUrls: { web: `https://cdn.test/v${number}.json` },
    engineMin: {}, status: "live", rejectReason: "", notes: "", createdAt: server.clock.now(),
  };
  await server.deps.storage.transact(async (tx) => {
    const experience = (await tx.get(tables.experiences, experienceId))!;
    await tx.put(tables.placeVersions, version);
    await tx.put(tables.experiences, { ...experience, liveVersionId: version.id });
  });
  return version;
}

/** A seeded user and a client signed in as them. */
export interface Player extends SeededUser {
  client: PlayfieldClient;
}

export async function player(t: TestServer, options: { guest?: boolean; username?: string } = {}): Promise<Player> {
  const user = options.guest ? await t.server.seed.guest() : await t.server.seed.user({ username: options.username });
  const client = t.client();
  await client.auth.setTokens({ accessToken: user.accessToken, refreshToken: user.refreshToken });
  return { ...user, client };
}

/** Makes two users friends (both edges). */
export async function befriend(server: MemoryServer, a: string, b: string): Promise<void> {
  const now = server.clock.now();
  await server.deps.storage.transact(async (tx) => {
    await tx.put(tables.friendEdges, { id: `${a}:${b}`, userId: a, friendId: b, createdAt: now });
    await tx.put(tables.friendEdges, { id: `${b}:${a}`, userId: b, friendId: a, createdAt: now });
  });
}

export async function block(server: MemoryServer, blocker: string, blocked: string): Promise<void> {
  await server.deps.storage.transact((tx) => tx.put(tables.blocks, { id: `${blocker}:${blocked}`, blockerId: blocker, blockedId: blocked, createdAt: server.clock.now() }));
}

export async function setWhoCanJoin(server: MemoryServer, userId: string, whoCanJoin: "everyone" | "friends" | "nobody"): Promise<void> {
  await server.deps.storage.transact(async (tx) => {
    const user = (await tx.get(tables.users, userId))!;
    await tx.put(tables.users, { ...user, settings: { ...user.settings, whoCanJoin } });
  });
}

import { createMemoryTokenStore, type PlayfieldClient } from "@playfield/client";
import { tables, type ExperienceRow, type PlayRow } from "@playfield/core";
import { recordPlayEnded, recordPlayStarted } from "../src/services/creator/stats.js";
import type { SeedUserOptions, SeededUser } from "@playfield/server-memory";
import type { TestServer } from "./fixtures.js";

/* Fixtures of the economy and creator suites: signed-in clients, experiences and plays written straight to storage. */

export interface Player {
  user: SeededUser;
  client: PlayfieldClient;
}

/** A seeded account (or guest) and a client signed in as it. */
export async function player(t: TestServer, options: SeedUserOptions = {}): Promise<Player> {
  const user = await t.server.seed.user(options);
  const client = t.client({ tokenStore: createMemoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken, expiresAt: 0 }) });
  return { user, client };
}

let experienceCounter = 0;

/** An experience row of `creatorId`, written directly (as CatalogService would). */
export async function experience(t: TestServer, creatorId: string, patch: Partial<ExperienceRow> = {}): Promise<ExperienceRow> {
  const now = t.server.clock.now();
  experienceCounter += 1;
  const row: ExperienceRow = {
    id: `exp_test${experienceCounter}`, creatorId, title: "Test world", description: "", genre: "", thumbnailUrl: "",
    visibility: "public", hostingTier: "edge", maxPlayers: 10, startPlaceId: "plc_1", liveVersionId: null,
    createdAt: now, updatedAt: now, visits: 0, favorites: 0, upVotes: 0, downVotes: 0, ...patch,
  };
  await t.server.deps.storage.transact((tx) => tx.put(tables.experiences, row));
  return row;
}

let playCounter = 0;

/** Records a play as SessionService does: the play row, the experience's `visits` counter and the analytics aggregates, in one transaction. */
export async function recordPlay(t: TestServer, experienceId: string, userId: string, joinedAt: number, leftAt: number | null): Promise<void> {
  playCounter += 1;
  const play: PlayRow = { id: `ply_test${playCounter}`, experienceId, userId, sessionId: "gs_test", joinedAt, leftAt };
  await t.server.deps.storage.transact(async (tx) => {
    await tx.put(tables.plays, play);
    const row = await tx.get(tables.experiences, experienceId);
    if (!row) return;
    await tx.put(tables.experiences, { ...row, visits: row.visits + 1 });
    await recordPlayStarted(tx, play, row.creatorId);
    if (leftAt !== null) await recordPlayEnded(tx, play, leftAt);
  });
}

/** Tops up through the sandbox checkout: StartTopUp, then POST action=pay to the checkout page. */
export async function topUp(t: TestServer, client: PlayfieldClient, packId = "pack_400"): Promise<Response> {
  const { checkoutUrl } = await client.economy.startTopUp({ packId, method: "sandbox" });
  return t.fetch(checkoutUrl, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "action=pay" });
}

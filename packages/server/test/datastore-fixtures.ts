import type { PlayfieldClient } from "@playfield/client";
import { tables, type GameSessionRow, type HostingTier } from "@playfield/core";
import type { SeededUser } from "@playfield/server-memory";
import type { TestServer } from "./fixtures.js";

/** A player in a seeded game session: the account, its game token, and a client that sends that token. */
export interface Player {
  user: SeededUser;
  token: string;
  userId: string;
}

/** A seeded game session of one experience, members joined in order (the first is the authority when there is no host). */
export interface SeededGame {
  experienceId: string;
  sessionId: string;
  players: Player[];
  client: PlayfieldClient;
}

/**
 * Seeds `count` players into one session of an experience, one millisecond
 * apart so the join order is certain. With `tier`, also writes the session's
 * record (as Join would), with `host` as the peer host's index. With
 * `users`, those accounts join (seeding accounts hashes their passwords:
 * property tests seed them once).
 */
export async function seedGame(
  t: TestServer,
  options: { count?: number; experienceId?: string; tier?: HostingTier; host?: number; users?: SeededUser[] } = {},
): Promise<SeededGame> {
  const { server } = t;
  const experienceId = options.experienceId ?? server.deps.ids.id("exp");
  const sessionId = server.deps.ids.id("gs");
  const players: Player[] = [];
  for (let i = 0; i < (options.users?.length ?? options.count ?? 2); i++) {
    const user = options.users?.[i] ?? (await server.seed.user());
    const token = await server.seed.gameToken(user, { sessionId, experienceId });
    players.push({ user, token, userId: user.userId });
    server.clock.advance(1);
  }
  if (options.tier) {
    const host = options.host === undefined ? null : players[options.host]!.userId;
    const now = server.clock.now();
    const row = {
      id: sessionId, experienceId, placeVersionId: "", hostingTier: options.tier, maxPlayers: 50,
      hostUserId: options.tier === "peer" ? host : null, memberCount: players.length, createdAt: now, closedAt: null, connectUrl: "",
    } as GameSessionRow;
    await server.deps.storage.transact((tx) => tx.put(tables.gameSessions, row));
  }
  return { experienceId, sessionId, players, client: t.client() };
}

/** Call options that send a player's game token. */
export const as = (player: Player) => ({ token: player.token });
